// Prompts behind an interface: the real one uses inquirer's prompts on the terminal,
// tests script the answers. All questions and talk go to stderr.

export interface Choice<T> {
  name: string;
  value: T;
  description?: string;
}

export interface Prompter {
  /**
   * Free text. `validate` returns true or the message to show; a refused entry is
   * cleared so the next one is typed afresh. `checkedLater`: the answer is judged after
   * the prompt (a code the server checks), so the prompt does not mark it as accepted.
   */
  input(
    message: string,
    options?: { default?: string; validate?: (value: string) => true | string; checkedLater?: boolean },
  ): Promise<string>;
  /** Hidden input (passwords, recovery codes). */
  password(message: string, options?: { validate?: (value: string) => true | string }): Promise<string>;
  select<T>(message: string, choices: Choice<T>[]): Promise<T>;
  confirm(message: string, options?: { default?: boolean }): Promise<boolean>;
}
