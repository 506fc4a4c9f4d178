import { http } from './api.js';
import type { Schema } from './typed-api.js';

// Every call and shape is the gateway's OpenAPI document's (openapi.gen.ts).
export type AdminOverview = Schema<'AdminOverviewDto'>;
export type StorageByDay = Schema<'StorageByDayDto'>;
export type AdminBackups = Schema<'AdminBackupsDto'>;
export type DeliveryReviewSummary = Schema<'DeliveryReviewSummaryDto'>;
export type DeliveryReview = Schema<'DeliveryReviewDto'>;
export type DeliveryView = Schema<'DeliveryViewDto'>;

export const adminKeys = {
  users: (search: string) => ['admin', 'users', search] as const,
  storage: ['admin', 'storage'] as const,
  backups: ['admin', 'backups'] as const,
  deliveryReviews: ['admin', 'delivery-reviews'] as const,
};

export const QUEUE_DASHBOARD_PATH = '/api/admin/queues';

/** Counters over every account, the users whose e-mail or name contains `search` (any case), sign-ups per day. */
export function fetchAdminOverview(search: string, signal?: AbortSignal): Promise<AdminOverview> {
  return http.get('/api/admin/users', { query: search.trim() ? { q: search.trim() } : {}, signal });
}

export function fetchStorageByDay(signal?: AbortSignal): Promise<StorageByDay> {
  return http.get('/api/admin/storage', { signal });
}

/** The scheduled backup's record and whether a backup is overdue. */
export function fetchAdminBackups(signal?: AbortSignal): Promise<AdminBackups> {
  return http.get('/api/admin/backups', { signal });
}

/** Vault deliveries waiting for legal verification. */
export function fetchDeliveryReviews(signal?: AbortSignal): Promise<DeliveryReviewSummary[]> {
  return http.get('/api/admin/delivery-reviews', { signal });
}

/** One review; access-keys records the opening with the admin's id, so it is fetched only when the admin opens it. */
export function openDeliveryReview(ownerId: string): Promise<DeliveryReview> {
  return http.get('/api/admin/delivery-reviews/{id}', { path: { id: ownerId } });
}

export function approveDeliveryReview(ownerId: string): Promise<DeliveryView> {
  return http.post('/api/admin/delivery-reviews/{id}/approve', { path: { id: ownerId } });
}

export function rejectDeliveryReview(ownerId: string, reason: string): Promise<DeliveryView> {
  return http.post('/api/admin/delivery-reviews/{id}/reject', { path: { id: ownerId }, body: { reason } });
}

/** The queue dashboard is a page of its own: the gateway first sets its short-lived admin cookie. */
export async function openQueueDashboard(): Promise<void> {
  // Opened inside the click (a window opened after an await is a blocked pop-up), pointed once the cookie is set.
  const tab = window.open('about:blank', '_blank');
  try {
    await http.post('/api/admin/queue-session');
  } catch (error) {
    tab?.close();
    throw error;
  }
  if (!tab) {
    window.location.assign(QUEUE_DASHBOARD_PATH);
    return;
  }
  tab.opener = null;
  tab.location.href = QUEUE_DASHBOARD_PATH;
}
