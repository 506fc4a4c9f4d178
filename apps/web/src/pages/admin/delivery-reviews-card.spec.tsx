import { describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { DeliveryReview, DeliveryReviewSummary, UserProfile } from '@lv/contracts';
import { jsonResponse as json, renderApp, sam, withFakeGateway } from '../../test/app-harness.js';

// The "Delivery reviews" section of /admin in the whole app, the gateway an in-memory stand-in behind
// fetch that keeps the queue: a review is fetched only when opened, then approved or rejected.

const admin: UserProfile = { ...sam, id: 'a1', email: 'admin@example.com', full_name: 'Ada Admin', ai_admin: true };
const OWNER = '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11';
const waiting: DeliveryReviewSummary = {
  owner_id: OWNER, owner_email: 'dad@example.com', release_id: 'r1', trigger: 'trustee-report', triggered_at: '2026-12-01T10:00:00.000Z', not_before: '2026-12-04T10:00:00.000Z',
  reported: { by: 'Ann Lee', relationship: 'My Sibling', kind: 'died', reported_at: '2026-12-01T10:00:00.000Z' },
};

function fakeGateway() {
  let queue: DeliveryReviewSummary[] = [waiting];
  const asked: { method: string; path: string; body: unknown }[] = [];
  const handler = async (input: string, init?: { method?: string; body?: string }) => {
    const url = new URL(input, 'http://vault.test');
    const method = init?.method ?? 'GET';
    if (url.pathname === '/api/auth/session') return json(200, { session: null });
    if (!url.pathname.startsWith('/api/admin/delivery-reviews')) return json(404, { code: 'NOT_FOUND', message: 'Not found' });
    asked.push({ method, path: url.pathname, body: init?.body ? JSON.parse(init.body) : null });
    if (url.pathname === '/api/admin/delivery-reviews') return json(200, queue);
    if (url.pathname === `/api/admin/delivery-reviews/${OWNER}`) {
      const review: DeliveryReview = {
        ...waiting, trustees: [{ name: 'Ann Lee', relationship: 'My Sibling', status: 'accepted' }], documents: [],
        log: [{ action: 'opened', operator_id: 'a1', at: '2026-12-05T09:00:00.000Z', reason: null }],
      };
      return json(200, review);
    }
    if (method === 'POST' && url.pathname.endsWith('/approve')) {
      queue = [];
      return json(200, { status: 'waiting', release_id: 'r1', due_at: '2026-12-04T10:00:00.000Z', triggered_at: waiting.triggered_at });
    }
    if (method === 'POST' && url.pathname.endsWith('/reject')) {
      queue = [];
      return json(200, { status: 'rejected', release_id: 'r1', due_at: null, triggered_at: waiting.triggered_at });
    }
    return json(404, { code: 'NOT_FOUND', message: 'Not found' });
  };
  return { asked, fetch: jest.fn(handler) };
}

const gateway = withFakeGateway(fakeGateway);
const opened = () => gateway().asked.filter((a) => a.method === 'GET' && a.path === `/api/admin/delivery-reviews/${OWNER}`).length;

async function openTheReview() {
  renderApp('/admin', admin);
  const list = within(await screen.findByRole('list', { name: 'Deliveries waiting for review' }));
  expect(list.getByText('dad@example.com')).toBeTruthy();
  expect(list.getByText(/^Ann Lee \(My Sibling\) reported the owner has died, 1 December 2026 at \d\d:\d\d$/)).toBeTruthy();
  // Listing opens nothing: an opening is recorded, so it waits for the admin's click.
  expect(opened()).toBe(0);
  fireEvent.click(list.getByRole('button', { name: 'Review the delivery of dad@example.com' }));
  return within(await screen.findByRole('region', { name: 'Open review' }));
}

describe('Delivery reviews (/admin)', () => {
  it('lists a waiting delivery and opens its review once: trustees, documents, the log', async () => {
    const review = await openTheReview();
    expect(screen.getByRole('heading', { name: 'Delivery reviews' })).toBeTruthy();
    expect(review.getByText('Ann Lee (My Sibling, accepted)')).toBeTruthy();
    expect(review.getByText('The report holds no documents.')).toBeTruthy();
    expect(within(review.getByRole('list', { name: 'Review log' })).getByText(/^Opened by a1, 5 December 2026/)).toBeTruthy();
    expect(opened()).toBe(1);
  });

  it('approves: the owner is passed on, and the queue is empty afterwards', async () => {
    const review = await openTheReview();
    fireEvent.click(review.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('No deliveries are waiting for review.')).toBeTruthy();
    expect(gateway().asked.filter((a) => a.method === 'POST')).toEqual([{ method: 'POST', path: `/api/admin/delivery-reviews/${OWNER}/approve`, body: null }]);
  });

  it('rejects only with a reason, which is sent trimmed', async () => {
    const review = await openTheReview();
    fireEvent.click(review.getByRole('button', { name: 'Reject' }));
    expect(within(await review.findByRole('alert')).getByText(/^Give a reason/)).toBeTruthy();
    expect(review.getByLabelText('Reason').getAttribute('aria-invalid')).toBe('true');
    expect(gateway().asked.some((a) => a.method === 'POST')).toBe(false);

    fireEvent.change(review.getByLabelText('Reason'), { target: { value: '  The certificate names someone else. ' } });
    fireEvent.click(review.getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('No deliveries are waiting for review.')).toBeTruthy();
    await waitFor(() => expect(gateway().asked.filter((a) => a.method === 'POST')).toEqual([
      { method: 'POST', path: `/api/admin/delivery-reviews/${OWNER}/reject`, body: { reason: 'The certificate names someone else.' } },
    ]));
  });
});
