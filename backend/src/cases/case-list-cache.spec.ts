import { EventEmitter2 } from '@nestjs/event-emitter';
import { useTestDataSource } from '../../../test/support/data-source.js';
import { EVENTS_COMMITTED, LogListener } from '../event-store/log-listener.js';
import { CaseListCache } from './case-list-cache.js';

describe('CaseListCache', () => {
  let emitter: EventEmitter2;
  let listener: LogListener;
  let cache: CaseListCache;

  afterAll(async () => {
    cache?.close();
    await listener?.onModuleDestroy();
  });
  const database = useTestDataSource(2);

  beforeAll(() => {
    emitter = new EventEmitter2();
    listener = new LogListener(database.dataSource, emitter);
    cache = new CaseListCache(database.dataSource, listener);
  });

  it("keeps a scope's body and tag while nothing is committed", async () => {
    let loads = 0;
    const load = async () => `[${++loads}]`;
    const first = await cache.version('all', load);
    expect(listener.listening).toBe(true);
    const again = await cache.version('all', load);
    expect(again.tag).toBe(first.tag);
    expect((await first.body()).json.toString()).toBe('[1]');
    expect((await again.body()).json.toString()).toBe('[1]');
  });

  it("moves on at this process's own commit, before its NOTIFY can arrive: the caller reads its write", async () => {
    let loads = 0;
    const load = async () => `[${++loads}]`;
    const before = await cache.version('mine', load);
    expect((await before.body()).json.toString()).toBe('[1]');
    // What the command's flush does just before its HTTP answer; no turn of the loop passes
    // between it and the next read, so only the in-process signal can have moved the tag.
    emitter.emit(EVENTS_COMMITTED, { events: [] });
    const after = await cache.version('mine', load);
    expect(after.tag).not.toBe(before.tag);
    expect((await after.body()).json.toString()).toBe('[2]');
  });
});
