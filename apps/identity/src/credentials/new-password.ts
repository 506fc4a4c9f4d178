import { readFileSync } from 'node:fs';
import { AuthMessages, newPasswordProblem } from '@lv/contracts';

/**
 * The common and breached passwords a new password may not be (NIST SP 800-63B 3.1.1.2), lower-cased:
 * common-passwords.txt, shipped with the service (its source and licence are in its first lines).
 */
const COMMON_PASSWORDS: ReadonlySet<string> = new Set(
  readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line && !line.startsWith('#')),
);

/** What is wrong with a new password (sign-up, change, reset), or undefined when it may be used. */
export function newPasswordRefusal(password: string): string | undefined {
  return newPasswordProblem(password) ?? (COMMON_PASSWORDS.has(password.toLowerCase()) ? AuthMessages.passwordTooCommon : undefined);
}
