import { describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DEFAULT_NOTIFICATION_PREFERENCES, EmailChangeMessages, SettingsMessages, type NotificationPreferencesView, type UserProfile } from '@lv/contracts';
import { jsonResponse as json, renderApp, sam, withFakeGateway, recordingFetch } from '../../test/app-harness.js';
import { planProfileSave, profileFormOf } from './settings-form.js';

// /settings in the whole app, the gateway replaced by an in-memory stand-in behind fetch.

function fakeGateway() {
  let profile: UserProfile = { ...sam };
  let preferences: NotificationPreferencesView = { ...DEFAULT_NOTIFICATION_PREFERENCES, updated_at: null };
  const failing = new Map<string, Response>();
  let sessions = [
    { id: '11111111-1111-4111-8111-111111111111', device: 'Firefox on Linux', createdAt: '2026-12-01T09:00:00.000Z', lastSeenAt: '2026-12-06T09:00:00.000Z', current: true },
    { id: '22222222-2222-4222-8222-222222222222', device: 'Chrome on Windows', createdAt: '2026-11-20T09:00:00.000Z', lastSeenAt: '2026-12-05T09:00:00.000Z', current: false },
    { id: '33333333-3333-4333-8333-333333333333', device: 'Safari on iPhone', createdAt: '2026-11-10T09:00:00.000Z', lastSeenAt: '2026-12-04T09:00:00.000Z', current: false },
  ];
  const { calls, fetch } = recordingFetch(async ({ method, path, body }) => {
    const failure = failing.get(`${method} ${path}`);
    if (failure) return failure.clone();
    if (path === '/api/auth/session') return json(200, { session: null });
    if (path === '/api/me' && method === 'PATCH') return json(200, (profile = { ...profile, full_name: (body!.full_name as string) || null }));
    // The address changes only once the new one confirms: the reply is the profile as it is.
    if (path === '/api/me/email') return json(200, profile);
    if (path === '/api/me/password') return json(200, { otherSessionsEnded: 2 });
    if (path === '/api/me/notifications' && method === 'GET') return json(200, preferences);
    if (path === '/api/me/notifications' && method === 'PUT') return json(200, (preferences = { ...(body as unknown as NotificationPreferencesView), updated_at: '2026-11-26T10:00:00.000Z' }));
    if (path === '/api/me/sessions' && method === 'GET') return json(200, { sessions });
    if (path === '/api/me/sessions/sign-out-others') {
      const ended = sessions.filter((one) => !one.current).length;
      sessions = sessions.filter((one) => one.current);
      return json(200, { sessionsEnded: ended });
    }
    if (path.startsWith('/api/me/sessions/') && method === 'DELETE') {
      sessions = sessions.filter((one) => one.id !== path.split('/').at(-1));
      return json(200, { sessionsEnded: 1 });
    }
    if (path === '/api/me/export/session') return new Response(null, { status: 204 });
    if (path === '/api/billing/subscription') return json(200, { status: 'active', tier: 'essentials', current_period_end: '2026-12-26T00:00:00.000Z', cancel_at_period_end: false, provider: 'local' });
    return json(404, { code: 'NOT_FOUND', message: 'Not found' });
  });
  return { calls, failing, fetch, profile: () => profile };
}

const gateway = withFakeGateway(fakeGateway);

const form = () => screen.getByRole('form', { name: 'Account Profile' });
const typeIn = (label: string, value: string) => fireEvent.change(within(form()).getByLabelText(label), { target: { value } });
const save = () => fireEvent.click(within(form()).getByRole('button', { name: 'Save Profile Changes' }));
const sent = (method: string, path: string) => gateway().calls.filter((c) => c.method === method && c.path === path);

describe('Settings (/settings)', () => {
  it('saves the name and shows "Settings Saved!" for 3 seconds', async () => {
    renderApp('/settings');
    await screen.findByRole('heading', { level: 1, name: 'Settings' });
    expect((within(form()).getByLabelText('Full Name') as HTMLInputElement).value).toBe('Sam Carter');
    expect((within(form()).getByLabelText('Email') as HTMLInputElement).value).toBe('sam@example.com');
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    try {
      typeIn('Full Name', 'Samuel Carter');
      save();
      await screen.findByText(SettingsMessages.saved);
      expect(sent('PATCH', '/api/me')[0]!.body).toEqual({ full_name: 'Samuel Carter' });
      // Nothing else was changed, so nothing else was sent.
      expect(sent('PUT', '/api/me/email')).toHaveLength(0);
      act(() => jest.advanceTimersByTime(2900));
      expect(screen.getByText(SettingsMessages.saved)).toBeTruthy();
      act(() => jest.advanceTimersByTime(200));
      expect(screen.queryByText(SettingsMessages.saved)).toBeNull();
    } finally {
      jest.useRealTimers();
    }
  });

  it('asks for the current password before changing the e-mail, and sends nothing without it', async () => {
    renderApp('/settings');
    await screen.findByRole('heading', { level: 1, name: 'Settings' });
    typeIn('Email', 'sam.new@example.com');
    save();
    expect(await within(form()).findByText(SettingsMessages.currentPasswordRequired)).toBeTruthy();
    expect(sent('PUT', '/api/me/email')).toHaveLength(0);
    typeIn('Current Password', 'secret-one');
    save();
    await screen.findByText(SettingsMessages.saved);
    expect(sent('PUT', '/api/me/email')[0]!.body).toEqual({ email: 'sam.new@example.com', currentPassword: 'secret-one' });
    // Nothing changes until the new address confirms, and the page says where the link went.
    expect(within(form()).getByRole('status').textContent).toBe(EmailChangeMessages.sent('sam.new@example.com'));
    await waitFor(() => expect((within(form()).getByLabelText('Email') as HTMLInputElement).value).not.toBe('sam.new@example.com'));
  });

  it('changes the password once typed twice alike, then clears the password fields', async () => {
    renderApp('/settings');
    await screen.findByRole('heading', { level: 1, name: 'Settings' });
    typeIn('Current Password', 'secret-one');
    typeIn('New Password', 'better-secret');
    typeIn('Confirm New Password', 'better-secreT');
    save();
    expect(await within(form()).findByText(SettingsMessages.passwordsDoNotMatch)).toBeTruthy();
    expect(sent('PUT', '/api/me/password')).toHaveLength(0);
    typeIn('Confirm New Password', 'better-secret');
    save();
    await screen.findByText(SettingsMessages.saved);
    expect(sent('PUT', '/api/me/password')[0]!.body).toEqual({ currentPassword: 'secret-one', newPassword: 'better-secret' });
    expect(await screen.findByText('Signed out on 2 other devices.')).toBeTruthy();
    expect((within(form()).getByLabelText('New Password') as HTMLInputElement).value).toBe('');
  });

  it('keeps what was typed and says why when identity refuses', async () => {
    gateway().failing.set('PUT /api/me/password', json(400, { code: 'VALIDATION_FAILED', message: SettingsMessages.currentPasswordWrong, fields: { currentPassword: SettingsMessages.currentPasswordWrong } }));
    renderApp('/settings');
    await screen.findByRole('heading', { level: 1, name: 'Settings' });
    typeIn('Current Password', 'wrong-one');
    typeIn('New Password', 'better-secret');
    typeIn('Confirm New Password', 'better-secret');
    save();
    expect((await within(form()).findByRole('alert')).textContent).toBe(SettingsMessages.currentPasswordWrong);
    expect(within(form()).getByLabelText('Current Password').getAttribute('aria-invalid')).toBe('true');
    expect((within(form()).getByLabelText('New Password') as HTMLInputElement).value).toBe('better-secret');
    expect(screen.queryByText(SettingsMessages.saved)).toBeNull();
  });

  it('shows only the switches that control a real e-mail, with the spec defaults, and saves a change keeping the others', async () => {
    renderApp('/settings');
    const email = await screen.findByRole('switch', { name: 'Email Notifications' });
    expect(email.getAttribute('aria-checked')).toBe('true');
    expect(screen.getByRole('switch', { name: 'Access Requests' }).getAttribute('aria-checked')).toBe('true');
    // No e-mail of either kind exists: no switch that would do nothing.
    expect(screen.getAllByRole('switch').map((one) => one.getAttribute('aria-label'))).toEqual(['Email Notifications', 'Access Requests']);
    fireEvent.click(screen.getByRole('switch', { name: 'Access Requests' }));
    await screen.findByText(SettingsMessages.saved);
    expect(sent('PUT', '/api/me/notifications')[0]!.body).toEqual({ emailNotifications: true, accessRequests: false, systemUpdates: false, marketingEmails: false });
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Access Requests' }).getAttribute('aria-checked')).toBe('false'));
  });

  it('puts a switch back and says so when the save fails', async () => {
    gateway().failing.set('PUT /api/me/notifications', json(503, { code: 'SERVICE_UNAVAILABLE', message: 'Service unavailable' }));
    renderApp('/settings');
    fireEvent.click(await screen.findByRole('switch', { name: 'Email Notifications' }));
    expect(await screen.findByText('Notification settings were not saved.')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Email Notifications' }).getAttribute('aria-checked')).toBe('true'));
  });

  it('shows the subscription billing keeps in Subscription Status, never a made-up one', async () => {
    renderApp('/settings', { ...sam, subscription_tier: 'essentials' });
    const heading = await screen.findByRole('heading', { name: 'Subscription Status' });
    const card = heading.closest('[data-slot="subscription-status"]') as HTMLElement;
    expect(await within(card).findByText('Vault Essentials')).toBeTruthy();
    expect(within(card).queryByText(/Vault Pro/)).toBeNull();
    expect(within(card).getByText('Next billing: 26 December 2026')).toBeTruthy();
    expect(within(card).getByRole('link', { name: 'Upgrade Plan' }).getAttribute('href')).toBe('/pricing');
    expect(within(card).getByRole('button', { name: 'Cancel Subscription' })).toBeTruthy();
  });

  it('starts the export download and links a real privacy policy', async () => {
    const clicked: string[] = [];
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.getAttribute('href') ?? '');
    });
    renderApp('/settings');
    fireEvent.click(await screen.findByRole('button', { name: 'Export Vault Data' }));
    await waitFor(() => expect(clicked).toEqual(['/api/me/export']));
    expect(sent('POST', '/api/me/export/session')).toHaveLength(1);
    expect(screen.getByText(/content stays accessible until the end of your billing period/)).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'View Privacy Policy' }));
    await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' });
  });
});

describe('planProfileSave', () => {
  it('sends only what changed, and nothing when nothing did', () => {
    expect(planProfileSave(profileFormOf(sam), sam)).toEqual({ ok: true, changes: { name: null, email: null, password: null } });
    expect(planProfileSave({ ...profileFormOf(sam), email: ' SAM@example.com ' }, sam)).toEqual({ ok: true, changes: { name: null, email: null, password: null } });
  });

  it('refuses a bad e-mail, a short or blank new password, and a change without the current password', () => {
    expect(planProfileSave({ ...profileFormOf(sam), email: 'sam@', currentPassword: 'x' }, sam)).toMatchObject({ ok: false, errors: { email: 'Please enter a valid email' } });
    expect(planProfileSave({ ...profileFormOf(sam), newPassword: '123', confirmPassword: '123', currentPassword: 'x' }, sam)).toMatchObject({ ok: false, errors: { newPassword: 'Password must be at least 8 characters' } });
    expect(planProfileSave({ ...profileFormOf(sam), newPassword: '       ', confirmPassword: '       ', currentPassword: 'x' }, sam)).toMatchObject({ ok: false, errors: { newPassword: 'Password cannot be only spaces' } });
    expect(planProfileSave({ ...profileFormOf(sam), newPassword: 'secret22', confirmPassword: 'secret22' }, sam)).toMatchObject({ ok: false, errors: { currentPassword: SettingsMessages.currentPasswordRequired } });
  });

  it('lists the active sessions, this one marked, and signs one or every other out', async () => {
    renderApp('/settings');
    const list = await screen.findByRole('list', { name: 'Active sessions' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining('Firefox on LinuxThis browser'), expect.stringContaining('Chrome on Windows'), expect.stringContaining('Safari on iPhone'),
    ]);
    // This browser has no "Sign out" of its own here: the top bar's signs it out.
    expect(within(items[0]!).queryByRole('button')).toBeNull();
    fireEvent.click(within(items[1]!).getByRole('button', { name: /^Sign out Chrome on Windows/ }));
    await waitFor(() => expect(within(list).queryByText('Chrome on Windows')).toBeNull());
    expect(sent('DELETE', '/api/me/sessions/22222222-2222-4222-8222-222222222222')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Active sessions' })).getAllByRole('listitem')).toHaveLength(1));
    expect(sent('POST', '/api/me/sessions/sign-out-others')).toHaveLength(1);
    expect((screen.getByRole('button', { name: 'Sign out everywhere else' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
