// The parsers tests read our output with (the dataset card's YAML and Markdown, the funnel picture's SVG); none ships its own types.
declare module 'js-yaml' {
  export function load(text: string): unknown;
}

declare module 'markdown-it' {
  export default class MarkdownIt {
    constructor(options?: { html?: boolean; linkify?: boolean });
    render(src: string): string;
    parse(src: string, env: object): MarkdownToken[];
  }
  /** The parts of markdown-it's Token that the docs' link test reads. */
  export interface MarkdownToken {
    type: string;
    tag: string;
    content: string;
    map: [number, number] | null;
    children: MarkdownToken[] | null;
    attrGet(name: string): string | null;
  }
}

declare module 'sax' {
  export interface Tag {
    name: string;
    attributes: Record<string, string>;
  }
  export interface SAXParser {
    onopentag: (tag: Tag) => void;
    ontext: (text: string) => void;
    onerror: (e: Error) => void;
    write(s: string): SAXParser;
    close(): SAXParser;
  }
  export function parser(strict: boolean, options?: { xmlns?: boolean }): SAXParser;
}
