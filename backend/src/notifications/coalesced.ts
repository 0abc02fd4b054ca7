interface Waiter<I, O> {
  item: I;
  resolve: (result: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Turns many concurrent calls into one statement: calls made in the same tick, or while the
 * previous statement of this kind is still running, go together in the next one. A worker
 * running 50 jobs at once then pays one database round trip (one write, one commit) where it
 * paid 50; a lone call waits only for the end of the current tick. Each caller still awaits its
 * own row, so nothing is acknowledged before it is stored. `run` returns one result per item,
 * in order. If a batch fails, its items are tried one by one, so each caller gets its own outcome
 * (a database that is down fails them all; one bad item fails only its caller).
 */
export class Coalesced<I, O> {
  private pending: Waiter<I, O>[] = [];
  private running = false;
  private scheduled = false;

  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly maxBatch = 500,
  ) {}

  call(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.running || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async runAlone(waiter: Waiter<I, O>): Promise<void> {
    try {
      const [result] = await this.run([waiter.item]);
      waiter.resolve(result);
    } catch (error) {
      waiter.reject(error);
    }
  }

  private async flush(): Promise<void> {
    if (this.running || this.pending.length === 0) return;
    this.running = true;
    const batch = this.pending.splice(0, this.maxBatch);
    try {
      const results = await this.run(batch.map((waiter) => waiter.item));
      batch.forEach((waiter, index) => waiter.resolve(results[index]));
    } catch (error) {
      if (batch.length === 1) batch[0].reject(error);
      // One bad item must not fail the others: each goes alone, as it would have without batching
      // (in order, as calls for the same row must land).
      else for (const waiter of batch) await this.runAlone(waiter);
    } finally {
      this.running = false;
      if (this.pending.length > 0) this.schedule();
    }
  }
}

/**
 * Runs `statement` over items whose keys are unique within each round, in order: one SQL
 * statement cannot upsert or update the same row twice, and a later call for the same row must
 * land after the earlier one.
 */
export async function inKeyRounds<I, O>(
  items: I[],
  key: (item: I) => string,
  statement: (items: I[]) => Promise<O[]>,
): Promise<O[]> {
  const results = new Array<O>(items.length);
  let left = items.map((item, index) => ({ item, index }));
  while (left.length > 0) {
    const seen = new Set<string>();
    const round: typeof left = [];
    const later: typeof left = [];
    for (const entry of left) {
      const k = key(entry.item);
      if (seen.has(k)) later.push(entry);
      else {
        seen.add(k);
        round.push(entry);
      }
    }
    const out = await statement(round.map((entry) => entry.item));
    round.forEach((entry, i) => (results[entry.index] = out[i]));
    left = later;
  }
  return results;
}
