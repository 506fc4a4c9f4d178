import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  DEFAULT_DELIVERY_SETTINGS, ErrorCodes, IfImNotThereMessages as M, InactivityMessages, MediaMessages, type DeliverySettings, type DeliveryView, type EmergencyContact, type InactivityWatch,
  type Recording,
  TrusteeMessages, type TrusteeReport,
} from '@lv/contracts';
import { jsonResponse as json, quietConsole, renderApp, resetApp, sam, recordingFetch } from '../../test/app-harness.js';

// /if-im-not-there in the whole app, the gateway replaced by an in-memory stand-in behind fetch.

function fakeGateway() {
  const contacts: EmergencyContact[] = [];
  const finalMessages: Recording[] = [];
  let settings: DeliverySettings = { ...DEFAULT_DELIVERY_SETTINGS, updated_at: null };
  let delivery: DeliveryView = { status: 'none', release_id: null, due_at: null, triggered_at: null };
  const SEEN = '2026-11-25T10:00:00.000Z';
  const DAY = 86_400_000;
  // The inactivity watch as access-keys answers it: due times from the period and the last sign-in.
  const watchOf = (period_days: number | null, paused: boolean): InactivityWatch => {
    const lapse = period_days && !paused ? Date.parse(SEEN) + period_days * DAY : null;
    return {
      period_days, paused, last_seen_at: SEEN, lapsed_at: null, lapse_at: lapse ? new Date(lapse).toISOString() : null,
      warnings_at: lapse ? [14, 3].map((d) => new Date(lapse - d * DAY).toISOString()) : [],
    };
  };
  let watch = watchOf(null, false);
  const usedLinks = new Set<string>();
  let report: TrusteeReport | null = null;
  const closedReports: (TrusteeReport & { closedAt: string; closedBy: 'veto' | 'sign-in' | 'check-in' })[] = [];
  const failing = new Set<string>();
  const { calls, fetch } = recordingFetch(async ({ method, path, body }, url) => {
    if (path === '/api/auth/session') return json(200, { session: null });
    if (failing.has(`${method} ${path.replace(/[0-9a-f-]{36}/, ':id')}`)) return json(503, { code: 'SERVICE_UNAVAILABLE', message: 'Service unavailable' });
    if (path === '/api/if-im-not-there/contacts' && method === 'GET') return json(200, contacts);
    if (path === '/api/media/recordings' && method === 'GET') {
      return json(200, url.searchParams.get('collection') === 'final-messages' ? finalMessages : []);
    }
    const recordingMatch = /^\/api\/media\/recordings\/([^/]+)$/.exec(path);
    if (recordingMatch && method === 'DELETE') {
      finalMessages.splice(finalMessages.findIndex((r) => r.id === recordingMatch[1]), 1);
      return new Response(null, { status: 204 });
    }
    if (path === '/api/if-im-not-there/contacts' && method === 'POST') {
      const contact: EmergencyContact = {
        id: String(body!.id), name: String(body!.name).trim(), label: body!.label as EmergencyContact['label'], email: String(body!.email).trim().toLowerCase(),
        phone: body!.phone ? String(body!.phone) : null, has_access_key: false, access_key_expires_at: null, access_key_email: null, created_at: '2026-11-25T10:00:00.000Z',
      };
      contacts.push(contact);
      return json(201, contact);
    }
    const keyMatch = /^\/api\/if-im-not-there\/contacts\/([^/]+)\/access-key$/.exec(path);
    if (keyMatch) {
      const contact = contacts.find((c) => c.id === keyMatch[1])!;
      Object.assign(contact, body!.enabled
        ? { has_access_key: true, access_key_expires_at: '2026-12-02T10:00:00.000Z', access_key_email: 'queued' }
        : { has_access_key: false, access_key_expires_at: null, access_key_email: null });
      return json(200, { contact, access_key: body!.enabled ? '1b4e28ba-2fa1-41d2-883f-0016d3cca427' : null });
    }
    const removeMatch = /^\/api\/if-im-not-there\/contacts\/([^/]+)$/.exec(path);
    if (removeMatch && method === 'DELETE') {
      contacts.splice(contacts.findIndex((c) => c.id === removeMatch[1]), 1);
      return json(200, { id: removeMatch[1], removed: true });
    }
    if (path === '/api/if-im-not-there/delivery-settings' && method === 'GET') return json(200, settings);
    if (path === '/api/if-im-not-there/delivery' && method === 'GET') return json(200, delivery);
    if (path === '/api/if-im-not-there/delivery/checks' && method === 'POST') {
      return json(200, [
        { name: 'Delivery settings load', passed: true, detail: 'Timing: after_30_days.' },
        { name: 'Emergency contacts ready', passed: false, detail: 'Add at least one emergency contact: nobody would receive your vault.' },
      ]);
    }
    if (path === '/api/if-im-not-there/delivery/cancel' && method === 'POST') {
      delivery = { ...delivery, status: 'cancelled' };
      return json(200, delivery);
    }
    if (path === '/api/if-im-not-there/inactivity' && method === 'GET') return json(200, watch);
    if (path === '/api/if-im-not-there/inactivity' && method === 'PUT') {
      watch = watchOf(body!.period_days as number | null, watch.paused);
      return json(200, watch);
    }
    if (path === '/api/if-im-not-there/inactivity/pause' && method === 'POST') return json(200, (watch = watchOf(watch.period_days, true)));
    if (path === '/api/if-im-not-there/inactivity/resume' && method === 'POST') return json(200, (watch = watchOf(watch.period_days, false)));
    if (path === '/api/if-im-not-there/inactivity/test-warning' && method === 'POST') return json(200, watch);
    if (path === '/api/if-im-not-there/check-in' && method === 'POST') {
      // The good link of this stand-in is signed 'good'; anything else, or a second use, is refused as access-keys does.
      if (body!.sig !== 'good' || usedLinks.has(String(body!.w))) return json(400, { code: 'CHECK_IN_LINK_INVALID', message: ErrorCodes.CHECK_IN_LINK_INVALID.message });
      usedLinks.add(String(body!.w));
      return json(200, { checked_in_at: '2026-11-26T10:00:00.000Z', delivery_cancelled: delivery.status === 'waiting' });
    }
    if (path === '/api/if-im-not-there/trustee-report' && method === 'GET') {
      const open = report ? [{ ...report, closedAt: null, closedBy: null }] : [];
      return json(200, { report, history: [...open, ...closedReports].map(({ note: _note, ...entry }) => entry) });
    }
    if (path === '/api/if-im-not-there/trustee-report/veto' && method === 'POST') {
      if (!report) return json(409, { code: 'CONFLICT', message: TrusteeMessages.noOpenReport });
      closedReports.unshift({ ...report, closedAt: '2026-12-06T12:00:00.000Z', closedBy: 'veto' });
      report = null;
      delivery = { ...delivery, status: 'cancelled' };
      return json(200, { message: TrusteeMessages.vetoed });
    }
    if (path === '/api/if-im-not-there/delivery-settings' && method === 'PUT') {
      settings = { ...(body as Omit<DeliverySettings, 'updated_at'>), updated_at: '2026-11-25T11:00:00.000Z' };
      return json(200, settings);
    }
    return json(404, { code: 'NOT_FOUND', message: 'Not found' });
  });
  return {
    contacts, finalMessages, calls, failing, fetch, settings: () => settings, watch: () => watch,
    startDelivery: (view: DeliveryView) => {
      delivery = view;
    },
    reportBy: (r: TrusteeReport) => {
      report = r;
    },
  };
}

let gateway: ReturnType<typeof fakeGateway>;

beforeEach(() => {
  gateway = fakeGateway();
  (globalThis as { fetch: unknown }).fetch = gateway.fetch;
  quietConsole();
});

afterEach(resetApp);

const addForm = () => screen.getByRole('form', { name: 'Add Emergency Contact' });
const typeIn = (scope: HTMLElement, label: string, value: string) => fireEvent.change(within(scope).getByLabelText(label), { target: { value } });

describe("If I'm Not There (/if-im-not-there and /gone)", () => {
  it("names who reported what in a banner; \"I'm still here\" vetoes the report and stops the delivery", async () => {
    gateway.startDelivery({ status: 'waiting', release_id: '1b4e28ba-2fa1-41d2-883f-0016d3cca427', due_at: '2026-12-09T10:00:00.000Z', triggered_at: '2026-12-06T10:00:00.000Z' });
    gateway.reportBy({ reportId: '2b4e28ba-2fa1-41d2-883f-0016d3cca427', trusteeName: 'Ann Lee', kind: 'died', note: 'So sorry.', reportedAt: '2026-12-06T10:00:00.000Z', vetoEndsAt: '2026-12-09T10:00:00.000Z' });
    renderApp('/if-im-not-there');
    const banner = await screen.findByRole('alert', { name: 'Trustee report' });
    expect(banner.textContent).toContain('Ann Lee reported that you have passed away.');
    expect(banner.textContent).toContain('Their note: So sorry.');
    fireEvent.click(within(banner).getByRole('button', { name: "I'm still here" }));
    expect((await screen.findByText(TrusteeMessages.vetoed)).getAttribute('role')).toBe('status');
    expect(screen.queryByRole('alert', { name: 'Trustee report' })).toBeNull();
    expect(gateway.calls.filter((c) => c.path === '/api/if-im-not-there/trustee-report/veto')).toHaveLength(1);
    // The history keeps the report, now ended by the owner's answer.
    const history = await screen.findByRole('list', { name: 'Report history' });
    await waitFor(() => expect(history.textContent).toContain('Withdrawn: you answered "I\'m still here"'));
    expect(history.textContent).toContain('Ann Lee reported that you have passed away');
  });

  it('lists every report, newest first, with who reported, when, and how it ended', async () => {
    gateway.reportBy({ reportId: '3b4e28ba-2fa1-41d2-883f-0016d3cca427', trusteeName: 'Bo Lee', kind: 'incapacitated', note: '', reportedAt: '2026-12-06T10:00:00.000Z', vetoEndsAt: '2999-12-09T10:00:00.000Z' });
    renderApp('/if-im-not-there');
    const history = await screen.findByRole('list', { name: 'Report history' });
    const [item] = within(history).getAllByRole('listitem');
    expect(item!.textContent).toContain('Bo Lee reported that you are incapacitated (e.g. in hospital), on 6 December 2026');
    expect(item!.textContent).toContain('Open: nothing is released before 9 December 2999');
  });

  it('says so when no trustee has reported', async () => {
    renderApp('/if-im-not-there');
    expect(await screen.findByText('No trustee has reported anything.')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Report history' })).toBeNull();
  });

  it('shows its five sections and a shortcut for each, on both paths', async () => {
    for (const path of ['/if-im-not-there', '/gone']) {
      renderApp(path);
      await screen.findByRole('heading', { level: 1, name: "If I'm Not There" });
      for (const name of ['Emergency Contacts', 'Trustees', 'Final Messages', 'Delivery Settings', 'Your Legacy']) {
        expect(screen.getByRole('region', { name })).toBeTruthy();
        expect(within(screen.getByRole('navigation', { name: 'Page sections' })).getByRole('button', { name })).toBeTruthy();
      }
      resetApp();
    }
  });

  it('opens the plan choice instead of the camera when the plan has no final messages (free, Essentials)', async () => {
    const getUserMedia = jest.fn(async () => {
      throw new Error('the camera must not be asked for');
    });
    Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia } });
    for (const tier of ['none', 'essentials'] as const) {
      renderApp('/if-im-not-there', { ...sam, subscription_tier: tier });
      const section = await screen.findByRole('region', { name: 'Final Messages' });
      fireEvent.click(within(section).getByRole('button', { name: 'Record Final Message' }));
      const dialog = await screen.findByRole('dialog', { name: 'Choose your plan' });
      expect(within(dialog).getByText(MediaMessages.finalMessagesPlanRequired)).toBeTruthy();
      const plans = within(within(dialog).getByRole('list', { name: 'Plans' }));
      expect(plans.getByRole('link', { name: 'Choose Pro' }).getAttribute('href')).toBe('/checkout?plan=vault-pro');
      expect(plans.getByRole('link', { name: 'Choose Legacy' }).getAttribute('href')).toBe('/checkout?plan=vault-legacy');
      expect(plans.getByText('£20.00 per month')).toBeTruthy();
      expect(plans.getByText('£149 per year')).toBeTruthy();
      // The current plan is marked rather than offered.
      if (tier === 'essentials') expect(plans.queryByRole('link', { name: 'Choose Essentials' })).toBeNull();
      fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      resetApp();
    }
    expect(getUserMedia).not.toHaveBeenCalled();
  });

  it('lists the saved final messages from the vault and deletes one after confirming', async () => {
    gateway.finalMessages.push({
      id: '9a1f4c2e-1d2b-4c3d-8e4f-5a6b7c8d9e0f', type: 'audio', file_type: 'audio', title: 'For your wedding day', file_path: 'u1/audio_1.webm', content_type: 'audio/webm',
      size: 2048, blob_hash: 'a'.repeat(64), integrity: 'verified', collection: 'final-messages', created_at: '2026-11-25T09:00:00.000Z', timestamp: '2026-11-25T09:00:00.000Z',
    });
    renderApp('/if-im-not-there', { ...sam, subscription_tier: 'pro' });
    const list = await screen.findByRole('list', { name: 'Saved final messages' });
    expect(within(list).getByText('For your wedding day')).toBeTruthy();
    expect(gateway.calls.some((c) => c.method === 'GET' && c.path === '/api/media/recordings')).toBe(true);
    fireEvent.click(within(list).getByRole('button', { name: 'Delete For your wedding day' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete this final message?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await screen.findByText('No final messages yet.');
    expect(gateway.calls.some((c) => c.method === 'DELETE' && c.path === '/api/media/recordings/9a1f4c2e-1d2b-4c3d-8e4f-5a6b7c8d9e0f')).toBe(true);
  });

  it('asks for a name and an email in the spec’s words, sending nothing; then adds the contact with its relationship', async () => {
    renderApp('/if-im-not-there');
    await screen.findByText(/No emergency contacts yet/);
    typeIn(addForm(), 'Name', 'Grace Hale');
    fireEvent.click(within(addForm()).getByRole('button', { name: 'Add Contact' }));
    await screen.findByText(M.nameAndEmailRequired);
    expect(gateway.calls.filter((c) => c.method === 'POST')).toEqual([]);

    typeIn(addForm(), 'Email', 'Grace@Example.com');
    fireEvent.change(within(addForm()).getByLabelText('Relationship'), { target: { value: 'My Lawyer' } });
    expect(within(addForm()).getAllByRole('option').map((o) => o.textContent)).toEqual(['My Partner', 'My Lawyer', 'My Child', 'My Parent', 'My Sibling', 'My Friend', 'Other']);
    fireEvent.click(within(addForm()).getByRole('button', { name: 'Add Contact' }));
    const item = await screen.findByRole('listitem', { name: 'Grace Hale' });
    expect(item.textContent).toContain('My Lawyer · grace@example.com');
    const sent = gateway.calls.find((c) => c.method === 'POST')!.body!;
    expect(sent).toMatchObject({ name: 'Grace Hale', label: 'My Lawyer', email: 'Grace@Example.com', phone: '' });
    expect(String(sent.id)).toMatch(/^[0-9a-f-]{36}$/);
    expect((within(addForm()).getByLabelText('Name') as HTMLInputElement).value).toBe('');
  });

  it('turns a contact’s access key on (sent, valid 7 days) and off, and says so when it fails', async () => {
    gateway.contacts.push({ id: '7d3f0c52-6a0e-4f0e-9d55-3b1c1f0a9e11', name: 'Tom', label: 'My Friend', email: 'tom@example.com', phone: null, has_access_key: false, access_key_expires_at: null, access_key_email: null, created_at: '2026-11-25T10:00:00.000Z' });
    renderApp('/if-im-not-there');
    const toggle = await screen.findByRole('switch', { name: 'Access key for Tom' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    fireEvent.click(toggle);
    await screen.findByText(M.keySent('tom@example.com'));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Access key for Tom' }).getAttribute('aria-checked')).toBe('true'));
    expect(screen.getByRole('listitem', { name: 'Tom' }).textContent).toContain('valid until 2 December 2026');

    gateway.failing.add('PUT /api/if-im-not-there/contacts/:id/access-key');
    fireEvent.click(screen.getByRole('switch', { name: 'Access key for Tom' }));
    await screen.findByText(M.updateKeyFailed);
    expect(screen.getByRole('switch', { name: 'Access key for Tom' }).getAttribute('aria-checked')).toBe('true');
  });

  it('removes a contact only after confirming', async () => {
    gateway.contacts.push({ id: '7d3f0c52-6a0e-4f0e-9d55-3b1c1f0a9e11', name: 'Tom', label: 'My Friend', email: 'tom@example.com', phone: null, has_access_key: true, access_key_expires_at: '2026-12-02T10:00:00.000Z', access_key_email: 'sent', created_at: '2026-11-25T10:00:00.000Z' });
    renderApp('/if-im-not-there');
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Tom' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove Tom?' });
    expect(dialog.textContent).toContain('Their access key stops working at once.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await screen.findByText(M.contactRemoved);
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Tom' })).toBeNull());
  });

  it('shows the spec’s default delivery settings and saves them as a whole', async () => {
    renderApp('/if-im-not-there');
    const form = await screen.findByRole('form', { name: 'Delivery Settings' });
    const timing = within(form).getByRole('radiogroup', { name: 'Delivery Timing' });
    expect((within(timing).getByRole('radio', { name: 'After 30 days' }) as HTMLInputElement).checked).toBe(true);
    expect((within(form).getByRole('checkbox', { name: 'Require legal verification' }) as HTMLInputElement).checked).toBe(false);
    expect((within(form).getByRole('checkbox', { name: 'Allow preview' }) as HTMLInputElement).checked).toBe(true);
    expect((within(form).getByRole('checkbox', { name: 'Notify trustee' }) as HTMLInputElement).checked).toBe(true);

    fireEvent.click(within(timing).getByRole('radio', { name: 'After legal verification' }));
    fireEvent.click(within(form).getByRole('checkbox', { name: 'Require legal verification' }));
    typeIn(form, 'Trustee Name', 'Ruth Okafor');
    typeIn(form, 'Trustee Email', 'ruth@example.com');
    typeIn(form, 'Final Thoughts', 'Look after each other.');
    fireEvent.click(within(form).getByRole('button', { name: 'Save Settings' }));
    await screen.findByText(M.settingsSaved);
    expect(gateway.settings()).toMatchObject({
      delivery_timing: 'legal_verification', require_legal_verification: true, allow_preview: true, notify_trustee: true, trustee_name: 'Ruth Okafor', trustee_email: 'ruth@example.com',
      final_thoughts: 'Look after each other.',
    });
    expect(within(screen.getByRole('region', { name: 'Your Legacy' })).getByText('After legal verification')).toBeTruthy();
  });

  it('says so when the delivery settings cannot be saved, keeping what was typed', async () => {
    renderApp('/if-im-not-there');
    const form = await screen.findByRole('form', { name: 'Delivery Settings' });
    typeIn(form, 'Final Thoughts', 'Kept.');
    gateway.failing.add('PUT /api/if-im-not-there/delivery-settings');
    fireEvent.click(within(form).getByRole('button', { name: 'Save Settings' }));
    await screen.findByText(M.saveSettingsFailed);
    expect((within(form).getByLabelText('Final Thoughts') as HTMLTextAreaElement).value).toBe('Kept.');
  });

  it('says when a delivery has started and when it is due, and "I’m Still Here" stops it', async () => {
    gateway.startDelivery({ status: 'waiting', release_id: 'r1', due_at: '2026-12-25T10:00:00.000Z', triggered_at: '2026-11-25T10:00:00.000Z' });
    renderApp('/if-im-not-there');
    const status = await screen.findByRole('status', { name: 'Delivery status' });
    expect(status.textContent).toContain('receive their keys on 25 December 2026');
    fireEvent.click(within(status).getByRole('button', { name: "I'm Still Here" }));
    await screen.findByText('Delivery stopped');
    await waitFor(() => expect(screen.getByRole('status', { name: 'Delivery status' }).textContent).toContain('The last delivery was stopped.'));
    expect(gateway.calls.some((c) => c.method === 'POST' && c.path === '/api/if-im-not-there/delivery/cancel')).toBe(true);
  });

  it('shows no delivery when none has started', async () => {
    renderApp('/if-im-not-there');
    const status = await screen.findByRole('status', { name: 'Delivery status' });
    expect(status.textContent).toContain('No delivery has started.');
    expect(within(status).queryByRole('button')).toBeNull();
  });
});

describe('Vault Delivery Settings Test (/test-vault-delivery)', () => {
  it('runs the checks on the services and shows each passed or failed', async () => {
    renderApp('/test-vault-delivery');
    await screen.findByRole('heading', { level: 1, name: 'Vault Delivery Settings Test' });
    fireEvent.click(screen.getByRole('button', { name: 'Run Integration Tests' }));
    expect((await screen.findByRole('listitem', { name: 'Delivery settings load: passed' })).textContent).toContain('Timing: after_30_days.');
    expect(screen.getByRole('listitem', { name: 'Emergency contacts ready: failed' }).textContent).toContain('Add at least one emergency contact');
    expect(screen.getByText('1 of 2 passed')).toBeTruthy();
    expect(gateway.calls.filter((c) => c.path === '/api/if-im-not-there/delivery/checks')).toHaveLength(1);
  });
});

describe('the inactivity watch (on /if-im-not-there) and its check-in link (/still-here)', () => {
  const watchForm = () => screen.getByRole('form', { name: 'If I stop signing in' });
  const status = () => within(watchForm()).getByRole('status', { name: 'Inactivity watch status' }).textContent;

  it('is off by default; a period is saved on the server, shown with its warning and delivery dates, paused and resumed', async () => {
    renderApp('/if-im-not-there');
    await screen.findByRole('form', { name: 'If I stop signing in' });
    expect(status()).toContain('Off.');
    const period = within(watchForm()).getByLabelText('Inactivity period') as HTMLSelectElement;
    expect(period.value).toBe('off');
    expect([...period.options].map((o) => o.textContent)).toEqual(['Off', '30 days without a sign-in', '60 days without a sign-in', '90 days without a sign-in', '180 days without a sign-in', '365 days without a sign-in']);
    expect(within(watchForm()).queryByRole('button', { name: 'Pause watch' })).toBeNull();
    expect(within(watchForm()).queryByRole('button', { name: 'Send a test warning' })).toBeNull();
    fireEvent.change(period, { target: { value: '90' } });
    fireEvent.click(within(watchForm()).getByRole('button', { name: 'Save inactivity period' }));
    await screen.findByText('Inactivity period saved');
    expect(gateway.calls.filter((c) => c.path === '/api/if-im-not-there/inactivity' && c.method === 'PUT').map((c) => c.body)).toEqual([{ period_days: 90 }]);
    await waitFor(() => expect(status()).toBe('On. Counting from 25 November 2026: warnings by e-mail on 9 February 2027 and 20 February 2027; delivery starts on 23 February 2027 unless you sign in or check in.'));

    fireEvent.click(within(watchForm()).getByRole('button', { name: 'Pause watch' }));
    await screen.findByText('Inactivity watch paused');
    await waitFor(() => expect(within(watchForm()).getByText('Paused', { selector: 'span' })).toBeTruthy());
    expect(status()).toBe('Paused. No warning is sent and no delivery starts until you resume the watch.');
    fireEvent.click(within(watchForm()).getByRole('button', { name: 'Resume watch' }));
    await waitFor(() => expect(status()).toContain('On.'));
    expect(within(watchForm()).queryByText('Paused', { selector: 'span' })).toBeNull();
    fireEvent.click(within(watchForm()).getByRole('button', { name: 'Send a test warning' }));
    await screen.findByText('Test warning sent');
    expect(gateway.calls.filter((c) => c.path === '/api/if-im-not-there/inactivity/test-warning')).toHaveLength(1);

    // Reloaded: what the server keeps.
    resetApp();
    renderApp('/if-im-not-there');
    await screen.findByRole('form', { name: 'If I stop signing in' });
    expect((within(watchForm()).getByLabelText('Inactivity period') as HTMLSelectElement).value).toBe('90');
    expect(status()).toContain('delivery starts on 23 February 2027');
  });

  it('tells an owner whose address is unverified, beside the period, why a watch waits for it (and not once the address is verified)', async () => {
    renderApp('/if-im-not-there', { ...sam, emailVerified: false });
    await screen.findByRole('form', { name: 'If I stop signing in' });
    expect(within(watchForm()).getByRole('note').textContent).toBe(InactivityMessages.verifyEmailFirst);
    resetApp();
    renderApp('/if-im-not-there');
    await screen.findByRole('form', { name: 'If I stop signing in' });
    expect(within(watchForm()).queryByRole('note')).toBeNull();
  });

  it('checks in from a good link only when the owner presses the button, and says so plainly; the same link again is refused', async () => {
    const link = '/still-here?w=5b0e4b6e-9d7c-4f5e-8a1b-2c3d4e5f6a7b&u=6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11&exp=1900000000&sig=good';
    renderApp(link, null);
    await screen.findByRole('heading', { level: 1, name: 'Are you still here?' });
    // Opening the link records nothing (a mail program scanning it must not check anyone in).
    expect(gateway.calls.filter((c) => c.path === '/api/if-im-not-there/check-in')).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: "I'm still here" }));
    await screen.findByRole('heading', { level: 1, name: 'Thank you. You are checked in.' });
    expect(screen.getByRole('status', { name: 'Check-in' }).textContent).toContain('the inactivity watch now counts from today');
    expect(gateway.calls.filter((c) => c.path === '/api/if-im-not-there/check-in').map((c) => c.body)).toEqual([
      { w: '5b0e4b6e-9d7c-4f5e-8a1b-2c3d4e5f6a7b', u: '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11', exp: '1900000000', sig: 'good' },
    ]);
    resetApp();
    renderApp(link, null);
    fireEvent.click(await screen.findByRole('button', { name: "I'm still here" }));
    expect((await screen.findByRole('alert')).textContent).toBe(ErrorCodes.CHECK_IN_LINK_INVALID.message);
  });

  it('refuses a forged link in plain words, and a link cut short without asking the server', async () => {
    renderApp('/still-here?w=5b0e4b6e-9d7c-4f5e-8a1b-2c3d4e5f6a7b&u=6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11&exp=1900000000&sig=forged', null);
    fireEvent.click(await screen.findByRole('button', { name: "I'm still here" }));
    expect((await screen.findByRole('alert')).textContent).toBe(ErrorCodes.CHECK_IN_LINK_INVALID.message);
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/auth');
    resetApp();
    const before = gateway.calls.length;
    renderApp('/still-here?w=5b0e4b6e-9d7c-4f5e-8a1b-2c3d4e5f6a7b', null);
    expect((await screen.findByRole('alert')).textContent).toBe(ErrorCodes.CHECK_IN_LINK_INVALID.message);
    expect(screen.queryByRole('button', { name: "I'm still here" })).toBeNull();
    expect(gateway.calls.slice(before).filter((c) => c.path === '/api/if-im-not-there/check-in')).toEqual([]);
  });
});
