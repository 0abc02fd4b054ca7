import { Injectable } from '@nestjs/common';
import { LIMIT_TEXTS, USER_LIMITS } from '@alignerflow/domain';
import { DataSource } from 'typeorm';
import { LimitReached } from '../common/limit-reached.js';

/** Seconds until the server's next midnight: when a day's upload volume starts again. */
const UNTIL_TOMORROW = `ceil(extract(epoch FROM (current_date + 1)::timestamptz - now()))::int`;

/**
 * Bytes each user uploaded today (upload_bytes_daily), against USER_LIMITS.uploadBytesPerDay.
 * `take` counts a received file only if it fits, in one statement, so two uploads at once cannot
 * both slip under the limit; `giveBack` returns the bytes of a file that was then refused.
 */
@Injectable()
export class UploadQuota {
  constructor(private readonly dataSource: DataSource) {}

  /** Refuses at once when today's volume is already spent, before the body is read. */
  async check(username: string): Promise<void> {
    const [row]: { bytes: string; retry: number }[] = await this.dataSource.query(
      `SELECT bytes::text, ${UNTIL_TOMORROW} AS retry FROM upload_bytes_daily
        WHERE username_key = $1 AND day = current_date`,
      [username.toLowerCase()],
    );
    if (row && Number(row.bytes) >= USER_LIMITS.uploadBytesPerDay)
      throw new LimitReached(LIMIT_TEXTS.uploads, row.retry);
  }

  async take(username: string, bytes: number): Promise<void> {
    const taken: unknown[] = await this.dataSource.query(
      `INSERT INTO upload_bytes_daily AS q (username_key, day, bytes)
       SELECT $1::text, current_date, $2::bigint WHERE $2::bigint <= $3::bigint
       ON CONFLICT (username_key, day) DO UPDATE SET bytes = q.bytes + excluded.bytes
        WHERE q.bytes + excluded.bytes <= $3::bigint
       RETURNING 1`,
      [username.toLowerCase(), bytes, USER_LIMITS.uploadBytesPerDay],
    );
    if (taken.length === 0) {
      const [{ retry }]: { retry: number }[] = await this.dataSource.query(
        `SELECT ${UNTIL_TOMORROW} AS retry`,
      );
      throw new LimitReached(LIMIT_TEXTS.uploads, retry);
    }
  }

  async giveBack(username: string, bytes: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE upload_bytes_daily SET bytes = greatest(bytes - $2::bigint, 0) WHERE username_key = $1 AND day = current_date`,
      [username.toLowerCase(), bytes],
    );
  }
}
