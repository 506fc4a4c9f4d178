import type { EntityManager } from '@mikro-orm/postgresql';
import { DEFAULT_NOTIFICATION_PREFERENCES, type AdminOverview, type NotificationPreferencesView, type UserProfile } from '@lv/contracts';
import { projectionFor } from '@lv/platform/event-store';
import type { UserEvent } from './user.decider.js';


/** user_profiles: one row per user, kept in step with the user stream inside each append. */
export const userProfileProjection = projectionFor<UserEvent>({
  name: 'user_profiles',
  handles: ['UserRegistered', 'ProfileUpdated', 'SubscriptionTierChanged', 'AdminGranted', 'AdminRevoked', 'EmailChanged', 'NotificationPreferencesChanged', 'EmailVerified', 'AccountErased'],
  // Only em.execute writes: an append that commits on its own sends them with it (one round trip).
  writeOnly: true,

  async apply(em, events) {
    for (const event of events) {
      switch (event.type) {
        case 'UserRegistered':
          await em.execute(
            `insert into user_profiles (id, email, created_at) values (?, ?, ?) on conflict (id) do nothing`,
            [event.data.userId, event.data.email, event.data.registeredAt],
          );
          break;
        case 'ProfileUpdated': {
          const { userId, full_name, avatar_url } = event.data;
          if (full_name !== undefined) await em.execute('update user_profiles set full_name = ? where id = ?', [full_name, userId]);
          if (avatar_url !== undefined) await em.execute('update user_profiles set avatar_url = ? where id = ?', [avatar_url, userId]);
          break;
        }
        case 'SubscriptionTierChanged':
          await em.execute('update user_profiles set subscription_tier = ? where id = ?', [event.data.tier, event.data.userId]);
          break;
        case 'AdminGranted':
        case 'AdminRevoked':
          await em.execute('update user_profiles set ai_admin = ? where id = ?', [event.type === 'AdminGranted', event.data.userId]);
          break;
        case 'EmailChanged':
          await em.execute('update user_profiles set email = ? where id = ?', [event.data.email, event.data.userId]);
          break;
        case 'EmailVerified':
          await em.execute('update user_profiles set email_verified = true where id = ?', [event.data.userId]);
          break;
        case 'NotificationPreferencesChanged': {
          const { emailNotifications, accessRequests, systemUpdates, marketingEmails } = event.data.preferences;
          await em.execute(
            `insert into notification_preferences (user_id, email_notifications, access_requests, system_updates, marketing_emails, updated_at) values (?, ?, ?, ?, ?, ?)
              on conflict (user_id) do update set email_notifications = excluded.email_notifications, access_requests = excluded.access_requests,
                system_updates = excluded.system_updates, marketing_emails = excluded.marketing_emails, updated_at = excluded.updated_at`,
            [event.data.userId, emailNotifications, accessRequests, systemUpdates, marketingEmails, event.occurredAt],
          );
          break;
        }
        case 'AccountErased':
          // The grace period is over: nothing of the account stays readable (a rebuild ends here too).
          await em.execute('delete from user_profiles where id = ?', [event.data.userId]);
          await em.execute('delete from notification_preferences where user_id = ?', [event.data.userId]);
          break;
        default:
          break;
      }
    }
  },

  async reset(em) {
    await em.execute('delete from user_profiles');
    await em.execute('delete from notification_preferences');
  },
});

interface ProfileRow {
  id: string;
  email: string;
  full_name: string | null;
  avatar_url: string | null;
  created_at: Date | string;
  subscription_tier: UserProfile['subscription_tier'];
  ai_admin: boolean;
  email_verified: boolean;
}

const toProfile = ({ email_verified, ...row }: ProfileRow): UserProfile => ({ ...row, created_at: new Date(row.created_at).toISOString(), emailVerified: email_verified });

export async function findProfileById(em: EntityManager, userId: string): Promise<UserProfile | null> {
  const [row] = await em.execute<ProfileRow[]>('select * from user_profiles where id = ?', [userId]);
  return row ? toProfile(row) : null;
}

export async function findProfileByEmail(em: EntityManager, email: string): Promise<UserProfile | null> {
  const [row] = await em.execute<ProfileRow[]>('select * from user_profiles where email = ?', [email]);
  return row ? toProfile(row) : null;
}

export async function findNotificationPreferences(em: EntityManager, userId: string): Promise<NotificationPreferencesView> {
  const [row] = await em.execute<{ email_notifications: boolean; access_requests: boolean; system_updates: boolean; marketing_emails: boolean; updated_at: Date | string }[]>(
    'select email_notifications, access_requests, system_updates, marketing_emails, updated_at from notification_preferences where user_id = ?', [userId]);
  if (!row) return { ...DEFAULT_NOTIFICATION_PREFERENCES, updated_at: null };
  return {
    emailNotifications: row.email_notifications, accessRequests: row.access_requests, systemUpdates: row.system_updates, marketingEmails: row.marketing_emails,
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/** `like` pattern of a literal piece of text: its %, _ and \ match themselves. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The admin dashboard's figures. Counters are over every account; the list is newest first and, with
 * a search, only the accounts whose e-mail or full name contains it, ignoring case (spec 02, section 5).
 */
export async function adminOverview(em: EntityManager, search: string | undefined, limit: number): Promise<AdminOverview> {
  const [counts] = await em.execute<{ total: number; pro: number; admins: number; free: number }[]>(
    `select count(*)::int as total,
            count(*) filter (where subscription_tier = 'pro')::int as pro,
            count(*) filter (where ai_admin)::int as admins,
            count(*) filter (where subscription_tier is null or subscription_tier in ('', 'none'))::int as free
       from user_profiles`);
  const where = search ? `where email ilike ? or full_name ilike ?` : '';
  const params = search ? [containing(search), containing(search)] : [];
  const rows = await em.execute<ProfileRow[]>(`select * from user_profiles ${where} order by created_at desc, id desc limit ?`, [...params, limit + 1]);
  const signups = await em.execute<{ day: string; count: number }[]>(
    `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*)::int as count from user_profiles group by 1 order by 1`);
  return { counts: counts!, users: rows.slice(0, limit).map(toProfile), truncated: rows.length > limit, signupsByDay: signups };
}
