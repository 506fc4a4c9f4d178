/** A command called the wrong way: the CLI prints the message and the command's usage. */
export class UsageError extends Error {}
