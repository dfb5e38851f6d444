// Firmware unpacking tasks (migration 015): the uploaded image as a binary of its own, the task's status,
// progress and report, and the job that runs it — created together, so a task always has its job.
import type { Kysely, Selectable } from 'kysely';
import type { JobsRepository, NewJob } from './jobs.js';
import { insertBinary } from './binaries.js';
import type { Database, FirmwareTasksTable } from './schema.js';

export type FirmwareTaskRow = Selectable<FirmwareTasksTable> & { owner_team_id: number | null };
export type FirmwareStatus = 'PENDING' | 'RUNNING' | 'COMPLETED' | 'ERROR';

export interface NewFirmwareTask {
  id: string;
  userId: number;
  sha256: string;
  filename: string;
  scope: string;
  password: string | null;
}

export class FirmwareTasksRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly jobs: JobsRepository,
  ) {}

  /** The image's binary, the task and its job, atomically. */
  create(t: NewFirmwareTask, job: Omit<NewJob, 'analysisId'>): Promise<{ binaryId: number }> {
    return this.db.transaction().execute(async (tx) => {
      const now = Date.now();
      const binaryId = await insertBinary(tx, t.sha256, now);
      await tx
        .insertInto('firmware_tasks')
        .values({
          id: t.id,
          user_id: t.userId,
          binary_id: binaryId,
          filename: t.filename,
          scope: t.scope,
          status: 'PENDING',
          password: t.password,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await this.jobs.enqueue({ ...job, analysisId: null }, tx);
      return { binaryId };
    });
  }

  private withOwner() {
    return this.db
      .selectFrom('firmware_tasks as f')
      .innerJoin('users as u', 'u.id', 'f.user_id')
      .selectAll('f')
      .select('u.team_id as owner_team_id');
  }

  get(id: string): Promise<FirmwareTaskRow | undefined> {
    return this.withOwner().where('f.id', '=', id).executeTakeFirst();
  }

  /** The task whose image is this binary. */
  byBinary(binaryId: number): Promise<FirmwareTaskRow | undefined> {
    return this.withOwner().where('f.binary_id', '=', binaryId).executeTakeFirst();
  }

  async update(
    id: string,
    set: Partial<Pick<FirmwareTasksTable, 'status' | 'progress' | 'report' | 'error' | 'password'>>,
  ): Promise<void> {
    await this.db
      .updateTable('firmware_tasks')
      .set({ ...set, updated_at: Date.now() })
      .where('id', '=', id)
      .execute();
  }
}
