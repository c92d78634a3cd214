/** An error whose message is one line meant for the user; the CLI prints it without a stack. */
export class UserError extends Error {
  override name = 'UserError';
}

export class CorpusFileError extends UserError {
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`${file}: ${problem}`);
  }
}
