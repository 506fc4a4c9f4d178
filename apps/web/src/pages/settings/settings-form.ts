import { newPasswordProblem, PASSWORD_MIN_LENGTH, SettingsMessages, validateCredentials, type UserProfile } from '@lv/contracts';

/** How long "Settings Saved!" stays on screen (spec 02, section 9). */
export const SAVED_BANNER_MS = 3000;

export interface ProfileForm {
  fullName: string;
  email: string;
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export type ProfileField = keyof ProfileForm;

export const profileFormOf = (user: UserProfile | null): ProfileForm => ({
  fullName: user?.full_name ?? '',
  email: user?.email ?? '',
  currentPassword: '',
  newPassword: '',
  confirmPassword: '',
});

/** What a save has to do, in order: each step only when its part of the form changed. */
export interface ProfileChanges {
  name: string | null;
  email: string | null;
  password: { currentPassword: string; newPassword: string } | null;
}

export type ProfilePlan = { ok: true; changes: ProfileChanges } | { ok: false; errors: Partial<Record<ProfileField, string>> };

/**
 * Checks the form before anything is sent. Changing the e-mail or the password needs the current
 * password (identity checks it again); the new password follows the sign-up rules and must be typed twice.
 */
export function planProfileSave(form: ProfileForm, user: UserProfile): ProfilePlan {
  const errors: Partial<Record<ProfileField, string>> = {};
  const name = form.fullName.trim();
  const email = form.email.trim().toLowerCase();
  const emailChanged = email !== user.email.toLowerCase();
  const passwordChanged = form.newPassword !== '' || form.confirmPassword !== '';
  if (emailChanged) {
    const problem = validateCredentials({ email, password: 'x'.repeat(PASSWORD_MIN_LENGTH) })?.email;
    if (problem) errors.email = problem;
  }
  if (passwordChanged) {
    const problem = newPasswordProblem(form.newPassword);
    if (problem) errors.newPassword = problem;
    else if (form.newPassword !== form.confirmPassword) errors.confirmPassword = SettingsMessages.passwordsDoNotMatch;
  }
  if ((emailChanged || passwordChanged) && form.currentPassword === '') errors.currentPassword = SettingsMessages.currentPasswordRequired;
  if (Object.keys(errors).length) return { ok: false, errors };
  return {
    ok: true,
    changes: {
      name: name !== (user.full_name ?? '') ? name : null,
      email: emailChanged ? email : null,
      password: passwordChanged ? { currentPassword: form.currentPassword, newPassword: form.newPassword } : null,
    },
  };
}

export const hasChanges = (changes: ProfileChanges): boolean => changes.name !== null || changes.email !== null || changes.password !== null;
