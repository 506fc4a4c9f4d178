import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { CheckCircle2, Download } from 'lucide-react';
import { EmailChangeMessages, SettingsMessages, type NotificationPreferences, type NotificationPreferencesView, type UserProfile } from '@lv/contracts';
import { ApiError, errorMessage } from '../../api/client.js';
import {
  changeEmail, changePassword, downloadVaultExport, fetchNotificationPreferences, saveNotificationPreferences, settingsKeys, updateName,
} from '../../api/settings.js';
import { useAuth } from '../../auth/AuthProvider.js';
import { SubscriptionStatusCard } from '../billing/SubscriptionStatusCard.js';
import { ActiveSessions } from './ActiveSessions.js';
import { DeleteAccount } from './DeleteAccount.js';
import { TwoStepSettings } from './TwoStepSettings.js';
import { PasskeySettings } from './PasskeySettings.js';
import { Button } from '../../components/ui/button.js';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.js';
import { Input, Label } from '../../components/ui/input.js';
import { LoadFailed } from '../../components/ui/load-failed.js';
import { Spinner } from '../../components/ui/spinner.js';
import { usePageTitle } from '../../lib/use-page-title.js';
import { hasChanges, planProfileSave, profileFormOf, SAVED_BANNER_MS, type ProfileField, type ProfileForm } from './settings-form.js';

/**
 * Settings (/settings): the account profile (name, e-mail, password), notification settings, the
 * subscription and the owner's data. Each save goes to identity; "Settings Saved!" shows for 3 s.
 */
export function SettingsPage() {
  usePageTitle('Settings');
  const { user } = useAuth();
  const [savedAt, setSavedAt] = useState<number | null>(null);

  useEffect(() => {
    if (savedAt === null) return;
    const timer = window.setTimeout(() => setSavedAt(null), SAVED_BANNER_MS);
    return () => window.clearTimeout(timer);
  }, [savedAt]);

  if (!user) return null;
  const saved = () => setSavedAt(Date.now());
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-10">
      <header>
        <h1 className="font-serif text-4xl font-semibold tracking-tight">Settings</h1>
        <p className="mt-2 text-muted-foreground">Your account, how Legacy Vault reaches you, your plan and your data.</p>
      </header>
      <div role="status" aria-live="polite">
        {savedAt !== null ? (
          <p className="flex items-center gap-2 rounded-xl border border-primary/30 bg-primary/10 px-4 py-3 text-sm font-medium text-primary">
            <CheckCircle2 aria-hidden="true" className="h-4 w-4" />
            {SettingsMessages.saved}
          </p>
        ) : null}
      </div>
      <AccountProfile user={user} onSaved={saved} />
      <TwoStepSettings />
      <PasskeySettings />
      <ActiveSessions />
      <NotificationSettings onSaved={saved} />
      {/* The plan from billing, with Upgrade Plan and Cancel Subscription (spec 02: Subscription Status). */}
      <div data-slot="subscription-status">
        <SubscriptionStatusCard />
      </div>
      <DataAndPrivacy />
      <DeleteAccount />
    </div>
  );
}

const FIELDS: { field: ProfileField; label: string; type: string; autoComplete: string }[] = [
  { field: 'fullName', label: 'Full Name', type: 'text', autoComplete: 'name' },
  { field: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
  { field: 'currentPassword', label: 'Current Password', type: 'password', autoComplete: 'current-password' },
  { field: 'newPassword', label: 'New Password', type: 'password', autoComplete: 'new-password' },
  { field: 'confirmPassword', label: 'Confirm New Password', type: 'password', autoComplete: 'new-password' },
];

function AccountProfile({ user, onSaved }: { user: UserProfile; onSaved: () => void }) {
  const auth = useAuth();
  const updateProfile = (next: UserProfile) => auth.updateProfile(next);
  const formId = useId();
  const [form, setForm] = useState<ProfileForm>(() => profileFormOf(user));
  const [errors, setErrors] = useState<Partial<Record<ProfileField, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  /** The address a confirmation link went to: the profile keeps the current one until it is opened. */
  const [pendingEmail, setPendingEmail] = useState<string | null>(null);
  // Sent here by a sign-in whose password fails today's rules: say why, and start at Current Password.
  const location = useLocation();
  const passwordChangeRequired = (location.state as { passwordChangeRequired?: boolean } | null)?.passwordChangeRequired === true;
  const [weakPassword, setWeakPassword] = useState(passwordChangeRequired);
  const currentPasswordRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (passwordChangeRequired) currentPasswordRef.current?.focus();
  }, [passwordChangeRequired]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const plan = planProfileSave(form, user);
    if (!plan.ok) {
      setErrors(plan.errors);
      return;
    }
    setErrors({});
    if (!hasChanges(plan.changes)) {
      onSaved();
      return;
    }
    setSaving(true);
    let latest = user;
    try {
      // One change at a time: what succeeded stays saved, and an error names the part that did not.
      if (plan.changes.name !== null) latest = await updateName(plan.changes.name);
      if (plan.changes.email !== null) {
        latest = await changeEmail({ email: plan.changes.email, currentPassword: form.currentPassword });
        setPendingEmail(plan.changes.email);
      }
      if (plan.changes.password) {
        const { otherSessionsEnded } = await changePassword(plan.changes.password);
        setWeakPassword(false);
        if (otherSessionsEnded > 0) toast.info(`Signed out on ${otherSessionsEnded} other ${otherSessionsEnded === 1 ? 'device' : 'devices'}.`);
      }
      updateProfile(latest);
      setForm(profileFormOf(latest));
      onSaved();
    } catch (error) {
      if (latest !== user) updateProfile(latest);
      const fields = error instanceof ApiError ? error.body.fields : undefined;
      if (fields) setErrors(Object.fromEntries(Object.entries(fields).filter(([key]) => FIELDS.some((f) => f.field === key))));
      // What was typed stays, to correct and save again.
      setFailure(errorMessage(error, 'Your changes could not be saved. Please try again.'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Account Profile</CardTitle>
        <CardDescription>
          Changing your email or password needs your current password. A new email takes effect once you open the link we send to it; either change signs you out everywhere else.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form aria-label="Account Profile" noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-4">
          {weakPassword ? (
            <p role="alert" className="rounded-xl border border-amber-500/40 bg-amber-500/10 px-4 py-3 text-sm">
              {SettingsMessages.weakPassword}
            </p>
          ) : null}
          <div className="grid gap-4 sm:grid-cols-2">
            {FIELDS.map(({ field, label, type, autoComplete }) => (
              <div key={field} className={`flex flex-col gap-1.5 ${field === 'currentPassword' ? 'sm:col-span-2' : ''}`}>
                <Label htmlFor={`${formId}-${field}`}>{label}</Label>
                <Input
                  id={`${formId}-${field}`}
                  ref={field === 'currentPassword' ? currentPasswordRef : undefined}
                  type={type}
                  autoComplete={autoComplete}
                  value={form[field]}
                  disabled={saving}
                  aria-invalid={errors[field] ? true : undefined}
                  aria-describedby={errors[field] ? `${formId}-${field}-error` : undefined}
                  onChange={(e) => setForm((current) => ({ ...current, [field]: e.target.value }))}
                />
                {errors[field] ? (
                  <p id={`${formId}-${field}-error`} className="text-sm text-destructive">
                    {errors[field]}
                  </p>
                ) : null}
              </div>
            ))}
          </div>
          {pendingEmail ? (
            <p role="status" className="rounded-xl border border-primary/30 bg-primary/10 px-4 py-3 text-sm">
              {EmailChangeMessages.sent(pendingEmail)}
            </p>
          ) : null}
          {failure ? (
            <p role="alert" className="rounded-xl border border-destructive/30 bg-destructive/10 px-4 py-3 text-sm text-destructive">
              {failure}
            </p>
          ) : null}
          <div>
            <Button type="submit" disabled={saving}>
              {saving ? <Spinner className="h-4 w-4" /> : null}
              Save Profile Changes
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

/**
 * Only switches that control an e-mail Legacy Vault really sends. The spec's "System Updates" and
 * "Marketing Emails" are kept with their defaults (the API still saves them) but not shown: no such
 * e-mail exists, and a switch that does nothing would mislead.
 */
const SWITCHES: { key: keyof NotificationPreferences; label: string; description: string }[] = [
  { key: 'emailNotifications', label: 'Email Notifications', description: 'Every email you can turn off: while this is off, none of them is sent.' },
  { key: 'accessRequests', label: 'Access Requests', description: 'An email when someone asks for access to your vault.' },
];

function NotificationSettings({ onSaved }: { onSaved: () => void }) {
  const queryClient = useQueryClient();
  const preferences = useQuery({ queryKey: settingsKeys.notifications, queryFn: ({ signal }) => fetchNotificationPreferences(signal) });
  const save = useMutation({
    mutationFn: saveNotificationPreferences,
    onSuccess: (next) => {
      queryClient.setQueryData(settingsKeys.notifications, next);
      onSaved();
    },
    // The switch goes back to what is saved; the toast says why.
    onError: (error) => toast.error('Notification settings were not saved.', { description: errorMessage(error, 'Please try again.') }),
  });

  const toggle = (current: NotificationPreferencesView, key: keyof NotificationPreferences) => {
    const { emailNotifications, accessRequests, systemUpdates, marketingEmails } = current;
    save.mutate({ emailNotifications, accessRequests, systemUpdates, marketingEmails, [key]: !current[key] });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Notification Settings</CardTitle>
        <CardDescription>
          Choose what Legacy Vault emails you about. Each switch is saved as you change it. Emails that keep your account and your vault safe (a sign-in from a new browser, a changed password or email, the inactivity check-ins, a trustee&apos;s report) are always sent.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {preferences.isPending ? (
          <Spinner label="Loading your notification settings…" />
        ) : preferences.isError ? (
          <LoadFailed message="Could not load your notification settings." onRetry={() => void preferences.refetch()} />
        ) : (
          <ul className="flex flex-col divide-y divide-border">
            {SWITCHES.map(({ key, label, description }) => {
              const on = save.isPending && save.variables ? save.variables[key] : preferences.data[key];
              return (
                <li key={key} className="flex items-center justify-between gap-4 py-3">
                  <div>
                    <p className="font-medium">{label}</p>
                    <p className="text-sm text-muted-foreground">{description}</p>
                  </div>
                  <button
                    type="button"
                    role="switch"
                    aria-checked={on}
                    aria-label={label}
                    disabled={save.isPending}
                    onClick={() => toggle(preferences.data, key)}
                    className="relative h-6 w-11 shrink-0 rounded-full bg-muted transition aria-checked:bg-primary disabled:opacity-60"
                  >
                    <span aria-hidden="true" className={`absolute top-0.5 h-5 w-5 rounded-full bg-background shadow transition-all ${on ? 'left-5.5' : 'left-0.5'}`} />
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * SLOT for the billing card: the lead mounts apps/web/src/pages/billing/SubscriptionStatusCard.tsx
 * here (status, next billing date, Upgrade Plan and Cancel Subscription). Until then this shows the
 * plan the account holds, read from the profile, and where to change it: never made-up values.
 */
function DataAndPrivacy() {
  const [starting, setStarting] = useState(false);
  const busy = useRef(false);

  const exportVault = async () => {
    if (busy.current) return;
    busy.current = true;
    setStarting(true);
    try {
      await downloadVaultExport();
      toast.success('Your vault export is downloading.', { description: 'A ZIP of everything you have saved, with an index.html to browse it offline.' });
    } catch (error) {
      toast.error('The export could not start.', { description: errorMessage(error, 'Please try again.') });
    } finally {
      busy.current = false;
      setStarting(false);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Data &amp; Privacy</CardTitle>
        <CardDescription>Everything in your vault is yours. Take a full copy whenever you like.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col items-start gap-4">
        <p className="text-sm text-muted-foreground">
          The export is a ZIP of your letters, recordings, final messages, Who I Am, court documents and If I&apos;m Not There settings, with a manifest of every file and its SHA-256
          fingerprint, and an index.html that opens in any browser without a connection.
        </p>
        <Button type="button" variant="outline" onClick={() => void exportVault()} disabled={starting}>
          {starting ? <Spinner className="h-4 w-4" /> : <Download aria-hidden="true" className="h-4 w-4" />}
          Export Vault Data
        </Button>
        <p className="text-sm text-muted-foreground">
          Data retention: if you cancel your subscription, your content stays accessible until the end of your billing period.
        </p>
        <Link to="/privacy" className="text-sm font-medium text-primary underline-offset-4 hover:underline">
          View Privacy Policy
        </Link>
      </CardContent>
    </Card>
  );
}
