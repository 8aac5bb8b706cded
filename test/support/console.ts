// A test fails when something writes to console.error that the test did not announce with
// expectConsoleError(pattern): an unexpected error log is a bug even when the test's assertions pass.
const realError = console.error.bind(console);
const unexpected: string[] = [];
let expected: RegExp[] = [];

export function expectConsoleError(pattern: RegExp): void {
  expected.push(pattern);
}

export function takeUnexpectedConsoleErrors(): string[] {
  expected = [];
  return unexpected.splice(0);
}

export function installConsoleGuard(): void {
  console.error = (...args: unknown[]) => {
    const text = args
      .map((arg) => (arg instanceof Error ? (arg.stack ?? arg.message) : String(arg)))
      .join(" ");
    const index = expected.findIndex((pattern) => pattern.test(text));
    if (index >= 0) {
      expected.splice(index, 1);
      return;
    }
    unexpected.push(text);
    realError(...args);
  };
}
