import type { EntityManager } from '@mikro-orm/postgresql';
import type { IdentityEvent, UserProfile } from '@lv/contracts';
import type { Projection, StoredEvent } from '@lv/platform/event-store';

type Event = StoredEvent<IdentityEvent>;

/** user_profiles: one row per user, kept in step with the user stream inside each append. */
export const userProfileProjection: Projection = {
  name: 'user_profiles',
  handles: ['UserRegistered', 'ProfileUpdated', 'SubscriptionTierChanged', 'AdminGranted', 'AdminRevoked'],

  async apply(em, events) {
    for (const event of events as Event[]) {
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
        default:
          break;
      }
    }
  },

  async reset(em) {
    await em.execute('delete from user_profiles');
  },
};

interface ProfileRow {
  id: string;
  email: string;
  full_name: string | null;
  avatar_url: string | null;
  created_at: Date | string;
  subscription_tier: UserProfile['subscription_tier'];
  ai_admin: boolean;
}

const toProfile = (row: ProfileRow): UserProfile => ({ ...row, created_at: new Date(row.created_at).toISOString() });

export async function findProfileById(em: EntityManager, userId: string): Promise<UserProfile | null> {
  const [row] = await em.execute<ProfileRow[]>('select * from user_profiles where id = ?', [userId]);
  return row ? toProfile(row) : null;
}

export async function findProfileByEmail(em: EntityManager, email: string): Promise<UserProfile | null> {
  const [row] = await em.execute<ProfileRow[]>('select * from user_profiles where email = ?', [email]);
  return row ? toProfile(row) : null;
}
