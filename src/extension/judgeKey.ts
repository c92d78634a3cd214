// The judge's API key lives in SecretStorage, like the salt: never in settings, the config or the corpus.
import * as vscode from 'vscode';

const SECRET_KEY = 'reviewCorpus.judgeApiKey';

export class JudgeKeyStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  async get(): Promise<string | undefined> {
    return (await this.secrets.get(SECRET_KEY)) || undefined;
  }

  /** Stores a key given directly (scripts, tests); it still goes only to SecretStorage. An empty one clears it. */
  async set(value: string): Promise<boolean> {
    if (value === '') await this.secrets.delete(SECRET_KEY);
    else await this.secrets.store(SECRET_KEY, value);
    return value !== '';
  }

  /** Asks for a key; undefined when the user cancels. An empty answer clears the key (a local server needs none). */
  async ask(): Promise<boolean | undefined> {
    const key = await vscode.window.showInputBox({
      title: 'Review Corpus: judge API key',
      prompt:
        "The key of your OpenAI-compatible judge endpoint. Kept in VS Code's secret storage, never in settings, corpus.json or the corpus file. Leave empty for a local server that needs none.",
      password: true,
      ignoreFocusOut: true,
    });
    if (key === undefined) return undefined;
    return this.set(key);
  }
}
