import type { AdminBackups, AdminOverview, DeliveryReview, DeliveryReviewSummary, DeliveryView, StorageByDay } from '@lv/contracts';
import { api } from './api.js';

export const adminKeys = {
  users: (search: string) => ['admin', 'users', search] as const,
  storage: ['admin', 'storage'] as const,
  backups: ['admin', 'backups'] as const,
  deliveryReviews: ['admin', 'delivery-reviews'] as const,
};

export const QUEUE_DASHBOARD_PATH = '/api/admin/queues';

/** Counters over every account, the users whose e-mail or name contains `search` (any case), sign-ups per day. */
export function fetchAdminOverview(search: string, signal?: AbortSignal): Promise<AdminOverview> {
  const query = search.trim() ? `?q=${encodeURIComponent(search.trim())}` : '';
  return api.get<AdminOverview>(`/api/admin/users${query}`, { signal });
}

export function fetchStorageByDay(signal?: AbortSignal): Promise<StorageByDay> {
  return api.get<StorageByDay>('/api/admin/storage', { signal });
}

/** The scheduled backup's record and whether a backup is overdue. */
export function fetchAdminBackups(signal?: AbortSignal): Promise<AdminBackups> {
  return api.get<AdminBackups>('/api/admin/backups', { signal });
}

/** Vault deliveries waiting for legal verification. */
export function fetchDeliveryReviews(signal?: AbortSignal): Promise<DeliveryReviewSummary[]> {
  return api.get<DeliveryReviewSummary[]>('/api/admin/delivery-reviews', { signal });
}

/** One review; access-keys records the opening with the admin's id, so it is fetched only when the admin opens it. */
export function openDeliveryReview(ownerId: string): Promise<DeliveryReview> {
  return api.get<DeliveryReview>(`/api/admin/delivery-reviews/${encodeURIComponent(ownerId)}`);
}

export function approveDeliveryReview(ownerId: string): Promise<DeliveryView> {
  return api.post<DeliveryView>(`/api/admin/delivery-reviews/${encodeURIComponent(ownerId)}/approve`, {});
}

export function rejectDeliveryReview(ownerId: string, reason: string): Promise<DeliveryView> {
  return api.post<DeliveryView>(`/api/admin/delivery-reviews/${encodeURIComponent(ownerId)}/reject`, { reason });
}

/** The queue dashboard is a page of its own: the gateway first sets its short-lived admin cookie. */
export async function openQueueDashboard(): Promise<void> {
  // Opened inside the click (a window opened after an await is a blocked pop-up), pointed once the cookie is set.
  const tab = window.open('about:blank', '_blank');
  try {
    await api.request<void>('/api/admin/queue-session', { method: 'POST' });
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
