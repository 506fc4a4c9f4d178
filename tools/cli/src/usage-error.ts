/** A command called the wrong way: the CLI prints the message and the command's usage. */
export class UsageError extends Error {}

/** A command a service refused for a reason the operator can act on: printed as it is, without a stack. */
export class CommandError extends Error {}
