// The VS Code language id of a file, from its name's suffix (the diff view's virtual documents use it).
// Unknown suffixes read as plain text.

const BY_SUFFIX: Readonly<Record<string, string>> = {
  py: 'python', pyi: 'python', rst: 'restructuredtext', md: 'markdown', txt: 'plaintext',
  c: 'c', h: 'cpp', cc: 'cpp', cpp: 'cpp', cxx: 'cpp', hpp: 'cpp', hh: 'cpp', hxx: 'cpp', mm: 'objective-cpp', m: 'objective-c',
  java: 'java', kt: 'kotlin', kts: 'kotlin', scala: 'scala', groovy: 'groovy', gradle: 'groovy',
  js: 'javascript', mjs: 'javascript', cjs: 'javascript', jsx: 'javascriptreact', ts: 'typescript', tsx: 'typescriptreact',
  go: 'go', rs: 'rust', rb: 'ruby', php: 'php', pl: 'perl', pm: 'perl', lua: 'lua', swift: 'swift', cs: 'csharp',
  sh: 'shellscript', bash: 'shellscript', zsh: 'shellscript', ps1: 'powershell', bat: 'bat', cmd: 'bat',
  json: 'json', yaml: 'yaml', yml: 'yaml', toml: 'toml', ini: 'ini', cfg: 'ini', conf: 'properties', properties: 'properties',
  xml: 'xml', html: 'html', htm: 'html', css: 'css', scss: 'scss', less: 'less', svg: 'xml',
  qml: 'qml', sql: 'sql', proto: 'proto3', cmake: 'cmake', mk: 'makefile', j2: 'jinja', tex: 'latex', dart: 'dart',
};

const BY_NAME: Readonly<Record<string, string>> = {
  'makefile': 'makefile', 'dockerfile': 'dockerfile', 'cmakelists.txt': 'cmake', 'android.bp': 'plaintext',
};

export function languageOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  if (BY_NAME[name]) return BY_NAME[name];
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return 'plaintext';
  return BY_SUFFIX[name.slice(dot + 1)] ?? 'plaintext';
}
