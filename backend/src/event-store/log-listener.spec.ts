import { EventEmitter2 } from '@nestjs/event-emitter';
import { DataSource } from 'typeorm';
import { useTestDataSource } from '../../../test/support/data-source.js';
import { EventStore } from './event-store.js';
import { EVENTS_COMMITTED, LogListener, type LogSubscriber } from './log-listener.js';

const metadata = { actor: { username: 'tech', role: 'Technician' }, correlationId: 'corr-l' };

/** Resolves once `check` holds, polling; fails the test after a few seconds. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !check(); waited += 20) {
    if (waited > 10_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('LogListener', () => {
  let other: DataSource;
  let emitter: EventEmitter2;
  let listener: LogListener;
  const calls: string[] = [];
  const subscriber: LogSubscriber = {
    appended: () => calls.push('appended'),
    connected: () => calls.push('connected'),
    lost: () => calls.push('lost'),
  };

  // Declared before the database's hooks because after-all hooks run in the order declared: the
  // listener's connection and the other pool go before the database is dropped under them.
  afterAll(async () => {
    await listener?.onModuleDestroy();
    await other?.destroy();
  });
  const database = useTestDataSource(10);

  beforeAll(async () => {
    // Another process's pool: its appends reach us only through NOTIFY.
    other = await new DataSource({ type: 'postgres', url: database.url }).initialize();
    emitter = new EventEmitter2();
    listener = new LogListener(database.dataSource, emitter);
  });

  it('listens once the first subscriber comes, and wakes it for appends of any process', async () => {
    expect(listener.listening).toBe(false);
    const { ready } = listener.subscribe(subscriber);
    await ready;
    expect(listener.listening).toBe(true);
    expect(calls).toEqual(['connected']);
    await new EventStore(other).append('l-1', 0, [{ type: 'NoteAdded', data: {} }], metadata);
    await until(() => calls.includes('appended'), 'the NOTIFY of another pool');
  });

  it('wakes once per commit of this process: its NOTIFY, not the in-process emit too', async () => {
    calls.length = 0;
    const store = new EventStore(database.dataSource);
    const events = await store.append('l-own', 0, [{ type: 'NoteAdded', data: {} }], metadata);
    // The NOTIFY is sent at commit, so on a busy machine the listener can hear it before the
    // append's own answer is read: what matters is that the emit adds nothing on its turn.
    const beforeEmit = [...calls];
    emitter.emit(EVENTS_COMMITTED, { events });
    expect(calls).toEqual(beforeEmit); // never on the committing turn
    await until(() => calls.includes('appended'), 'the NOTIFY of our own pool');
    // Anything still to come would come with the next round trip: make one, then count.
    await new EventStore(other).readAll(null, 1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual(['appended']);
  });

  it("tells committedHere of this process's own commits on the committing turn, while it listens", () => {
    expect(listener.listening).toBe(true);
    const here: string[] = [];
    const { unsubscribe } = listener.subscribe({
      appended: () => here.push('appended'),
      committedHere: () => here.push('committedHere'),
    });
    emitter.emit(EVENTS_COMMITTED, { events: [] });
    expect(here).toEqual(['committedHere']);
    unsubscribe();
    emitter.emit(EVENTS_COMMITTED, { events: [] });
    expect(here).toEqual(['committedHere']);
  });

  it("while it cannot listen, this process's own commits wake subscribers, once per batch", async () => {
    const down = new LogListener(
      new DataSource({ type: 'postgres', url: 'postgres://postgres@127.0.0.1:1/none' }),
      emitter,
    );
    const heard: string[] = [];
    const { ready, unsubscribe } = down.subscribe({ appended: () => heard.push('appended') });
    await ready;
    expect(down.listening).toBe(false);
    emitter.emit(EVENTS_COMMITTED, { events: [] });
    emitter.emit(EVENTS_COMMITTED, { events: [] });
    expect(heard).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard).toEqual(['appended']);
    unsubscribe();
    emitter.emit(EVENTS_COMMITTED, { events: [] });
    await new Promise((resolve) => setImmediate(resolve));
    expect(heard).toEqual(['appended']);
    await down.onModuleDestroy();
  });

  it('says when the connection is lost, reconnects, and says so again', async () => {
    calls.length = 0;
    const pid = listener.pid;
    expect(pid).toEqual(expect.any(Number));
    await other.query('SELECT pg_terminate_backend($1)', [pid]);
    await until(() => calls.includes('lost'), 'the loss');
    await until(() => calls.includes('connected'), 'the reconnect');
    expect(listener.pid).not.toBe(pid);
    calls.length = 0;
    await new EventStore(other).append('l-2', 0, [{ type: 'NoteAdded', data: {} }], metadata);
    await until(() => calls.includes('appended'), 'a NOTIFY after the reconnect');
  });

  it('stops telling a subscriber that has gone', () => {
    const quiet: string[] = [];
    const { unsubscribe } = listener.subscribe({ appended: () => quiet.push('appended') });
    unsubscribe();
    emitter.emit(EVENTS_COMMITTED, { events: [] });
    expect(quiet).toEqual([]);
  });
});
