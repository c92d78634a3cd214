// The prompts of CuREV ("Balancing Usefulness and Naturalness: An LLM-based Curation Pipeline for
// Code Review Comments"), tables 4, 8 and 9. The judge first writes the comment it considers
// perfect for the code, then grades the given comment against it: the paper found that this, with
// each criterion described, stops the model from giving 9s and 10s to everything (section 3.3,
// "LLM Calibration"). It also asks for a rationale (an implicit chain of thought). Changing any text
// here must change PROMPT_VERSION: it is part of every cache key, so old answers are not reused.

export const PROMPT_VERSION = 'curev-judge-1';
export const REWRITE_PROMPT_VERSION = 'curev-rewrite-1';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

const SYSTEM =
  'You are an expert software engineer who reviews code and assesses the quality of code review comments. Answer with one JSON object only, as the schema asks.';

/** Table 4, in full where the paper shows an excerpt: every criterion of Tables 2 and 3 is described. */
const ASSESSMENT = `### Code review comment generation
Generate a review comment that you consider perfect for the code change without considering the given input comment. A review comment should highlight the main issues, improvements, or suggestions for the code changes. The generated review comment should be concise, relevant, clear, useful, and complete. Put it in "exemplary_comment".

### Code review comment assessment
Then, evaluate and categorize only the given review comment, written by a reviewer, based on the below criteria. You can use the generated review comment as a reference to evaluate the given review comment. Note that multiple labels are allowed for the categories "Type" and "Nature".

1. Type: Categorize the review according to the type of issue it addresses: Refactoring (suggestions to improve code structure), Bugfix (identifies and suggests fixes for bugs), Testing (comments related to test cases), Logging (suggestions for logging practices), Documentation (recommendations for documentation changes), Other (any other type of comment).
2. Nature: Specify the nature of the review according to these categories:
- Descriptive: describe what the reviewer observes without explicitly suggesting specific actions.
- Prescriptive: suggest or request specific actions on the code.
- Clarification: request explanation or further information to better understand the code changes.
- Other: for comments that do not fit the previous categories.
3. Civility: Civil (a respectful, professional and constructive tone) or Uncivil (harsh language, sarcasm, a passive-aggressive tone or personal attacks).
4. Relevance: Assess the extent to which the comment is pertinent to the code change. 1 means completely irrelevant, 10 highly relevant. Use a 1-to-10 rating scale.
5. Clarity: Assess how clearly the comment communicates its message. 1 means very unclear, 10 very clear. Use a 1-to-10 rating scale.
6. Conciseness: Assess how effectively the comment conveys its message using the fewest necessary words while remaining fully informative. A concise comment should be completely brief but informative, avoiding unnecessary details, repetition, or verbosity. 1 means too verbose, 10 concise and to the point. Use a 1-to-10 rating scale.

Scores are integers. Use the whole scale: compare the given comment with your generated one rather than grading it alone. Give a short "rationale" for your labels and scores.

Output format (an example of the shape only):
{"exemplary_comment": "...", "type": ["Refactoring"], "nature": ["Prescriptive"], "civility": "Civil", "relevance": 8, "clarity": 7, "conciseness": 6, "rationale": "..."}`;

/** The code a comment is judged on: the hunk at patch set N (the code under review), lines numbered, the comment's lines marked. */
export function renderHunk(
  path: string,
  beforeText: string,
  beforeStart: number,
  commentLines: { from: number; to: number } | null,
): string {
  const lines = beforeText.endsWith('\n') ? beforeText.slice(0, -1).split('\n') : beforeText.split('\n');
  const width = String(beforeStart + lines.length).length;
  const body = lines.map((l, i) => {
    const n = beforeStart + i;
    const mark = commentLines && n >= commentLines.from && n <= commentLines.to ? '>' : ' ';
    return `${mark}${String(n).padStart(width)} | ${l}`;
  });
  return [`File: ${path} (lines marked ">" are the ones the comment is anchored to)`, ...body].join('\n');
}

export function judgeMessages(comment: string, hunk: string): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: `${ASSESSMENT}\n\n### Given review comment\n\n${comment}\n\n### Code changes\n\n${hunk}` },
  ];
}

const REFORMULATION_RULES = `1. Conciseness: Convey the message in the fewest words possible while remaining informative. Remove redundancy and irrelevant details.
2. Clarity: Ensure the comment is well-structured, grammatically correct, and unambiguous.
3. Civility: Maintain a respectful, professional, and constructive tone.

Answer with {"reformulated_comment": "..."}.`;

/** Table 8 (CuREV), or Table 9 (CuREV+) when exemplars are given. */
export function rewriteMessages(comment: string, hunk: string, exemplars: readonly string[] = []): ChatMessage[] {
  const intro = exemplars.length
    ? `### Review comment reformulation with in-context examples
Your task is to reformulate and improve the given review comment by making it civil, clear, and concise without changing its core message or intent. Use the provided high-quality examples as inspiration to guide the reformulation style and tone while ensuring consistency with the same quality attributes.`
    : `### Review comment reformulation
Your task is to reformulate and improve the given review comment by making it civil, clear, and concise without changing its core message or intent.`;
  const examples = exemplars.length
    ? `\n\n### Examples of good review comments (for inspiration only)\n\nInspire from the following list of good review comments.\n\n${exemplars.map((e, i) => `Example ${i + 1}:\n${e}`).join('\n\n')}`
    : '';
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: `${intro}\n${REFORMULATION_RULES}${examples}\n\n### Given review comment\n\n${comment}\n\n### Code changes\n\n${hunk}`,
    },
  ];
}

/** A rough token count (about four characters a token) for --dry-run's estimate; the real counts come from `usage`. */
export function estimateTokens(messages: readonly ChatMessage[]): number {
  return Math.ceil(messages.reduce((n, m) => n + m.content.length + 4, 0) / 4);
}
