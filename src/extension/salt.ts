// The pseudonym salt lives in SecretStorage: asked for once, never written to settings or the corpus.
import * as vscode from 'vscode';

const SECRET_KEY = 'reviewCorpus.salt';

export class SaltStore {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  async get(): Promise<string | undefined> {
    return (await this.secrets.get(SECRET_KEY)) || undefined;
  }

  /** The stored salt, or asks for one (once) and stores it. Undefined when the user declines. */
  async getOrAsk(): Promise<string | undefined> {
    return (await this.get()) ?? this.ask();
  }

  /** Stores a salt given directly (scripts, tests); it still goes only to SecretStorage. */
  async set(value: string): Promise<string> {
    if (value.length < 8) throw new Error('a salt needs at least 8 characters');
    await this.secrets.store(SECRET_KEY, value);
    return value;
  }

  async ask(): Promise<string | undefined> {
    const salt = await vscode.window.showInputBox({
      title: 'Review Corpus: pseudonym salt',
      prompt:
        "A secret salt for the account pseudonyms (HMAC). Kept in VS Code's secret storage, never in settings or the corpus file.",
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => (v.length < 8 ? 'Use at least 8 characters.' : undefined),
    });
    if (salt) await this.secrets.store(SECRET_KEY, salt);
    return salt || undefined;
  }
}
