import type { UserProfile } from '@lv/contracts';

/** The specs' signed-in parent: no plan, not an admin, address verified. */
export const sam: UserProfile = {
  id: 'u1', email: 'sam@example.com', full_name: 'Sam Carter', avatar_url: null, created_at: '2026-01-01T00:00:00.000Z', subscription_tier: 'none', ai_admin: false, emailVerified: true,
};
