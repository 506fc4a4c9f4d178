// Two-step sign-in's words, in a module of their own: only the pages that ask for a code bundle them.
/** Two-step sign-in with an authenticator app (issue 32): /settings sets it up, /auth asks for the code. */
export const TwoStepMessages = {
  codeRequired: 'Enter the 6-digit code from your authenticator app.',
  codeWrong: 'That code is not correct. Enter the code your authenticator app shows now.',
  recoveryCodeRequired: 'Enter one of your recovery codes.',
  /** TWO_STEP_INVALID's text: a wrong, used, lapsed, altered or another account's code or challenge alike. */
  signInRefused: 'That code is not valid, or this sign-in took too long. Check the code and try again, or sign in again with your password.',
  tooManyCodes: 'Too many wrong codes. Please wait a few minutes and try again.',
  notEnabled: 'Two-step sign-in is not turned on.',
  alreadyEnabled: 'Two-step sign-in is already on.',
  setupFirst: 'Start the set-up again: scan the new QR code, then enter the code it shows.',
  enabled: 'Two-step sign-in is on. Keep your recovery codes somewhere safe.',
  disabled: 'Two-step sign-in is off. Your password alone signs you in again.',
  recoveryCodesWarning: 'Save these recovery codes now: they are shown only once. Each one signs you in once if you lose your phone.',
} as const;
