import type { MikroORM } from '@mikro-orm/postgresql';

export interface RequestRow {
  id: string; owner_id: string; requester_email: string; requester_name: string | null; relationship: string; message: string;
  child_name: string | null; child_dob: string | null; held_key_id: string | null; status: 'pending' | 'approved' | 'declined';
  created_at: Date; decided_at: Date | null; key_id: string | null;
}

/** The access_requests and request_settings read models (access.projections.ts keeps them). */
export interface RequestsRepository {
  /** The owner's requests in this status, newest first. */
  withStatus(ownerId: string, status: RequestRow['status'], limit: number): Promise<RequestRow[]>;
  /** The owner's request with this id (another owner's is none). */
  find(ownerId: string, id: string): Promise<RequestRow | undefined>;
  /** Whether the owner's request link takes requests (open until he closes it). */
  isOpen(ownerId: string): Promise<boolean>;
}

export class SqlRequestsRepository implements RequestsRepository {
  constructor(private readonly orm: MikroORM) {}

  withStatus(ownerId: string, status: RequestRow['status'], limit: number): Promise<RequestRow[]> {
    return this.orm.em.fork().execute<RequestRow[]>(
      `select * from access_requests where owner_id = ? and status = ? order by created_at desc, id desc limit ?`, [ownerId, status, limit],
    );
  }

  async find(ownerId: string, id: string): Promise<RequestRow | undefined> {
    return (await this.orm.em.fork().execute<RequestRow[]>(`select * from access_requests where owner_id = ? and id = ?`, [ownerId, id]))[0];
  }

  async isOpen(ownerId: string): Promise<boolean> {
    return (await this.orm.em.fork().execute<{ open: boolean }[]>(`select open from request_settings where owner_id = ?`, [ownerId]))[0]?.open ?? true;
  }
}
