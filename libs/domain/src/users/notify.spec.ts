import {
  checkNotify,
  decideUser,
  DEFAULT_NOTIFY,
  evolveUser,
  notifyOf,
  publicUser,
  USER_TEXTS,
  type UserState,
} from './users.js';

const created = evolveUser(null, {
  type: 'UserCreated',
  data: { username: 'tech', role: 'Technician', email: null, passwordHash: 'hash' },
});

describe("a user's notification channels", () => {
  it('are both on for a new user and for one imported from an older backup', () => {
    expect(created.notify).toEqual({ push: true, email: true });
    const imported = evolveUser(null, {
      type: 'UserImported',
      data: {
        user: {
          username: 'old',
          role: 'Doctor',
          email: null,
          activationSoundEnabled: true,
          passwordHash: 'h',
        },
      },
    });
    expect(publicUser(imported).notify).toEqual(DEFAULT_NOTIFY);
    // A state written before the field existed reads as both on.
    const { notify: _, ...older } = created;
    expect(notifyOf(older as { notify?: undefined })).toEqual({ push: true, email: true });
    expect(notifyOf({ notify: { push: false } })).toEqual({ push: false, email: true });
  });

  it('change by an event of the user, only when they differ', () => {
    const self = { username: 'tech', role: 'Technician' as const };
    const off = decideUser(
      created,
      { type: 'UpdateUser', changes: { notify: { push: false, email: true } } },
      self,
      'tech',
    );
    expect(off).toEqual({
      ok: true,
      events: [{ type: 'UserUpdated', data: { changes: { notify: { push: false, email: true } } } }],
    });
    if (!off.ok) throw new Error(off.rejection.message);
    const next: UserState = evolveUser(created, off.events[0]);
    expect(next.notify).toEqual({ push: false, email: true });
    expect(
      decideUser(
        next,
        { type: 'UpdateUser', changes: { notify: { push: false, email: true } } },
        self,
        'tech',
      ),
    ).toEqual({
      ok: true,
      events: [],
    });
    // Someone else, not a Manager, may not.
    expect(
      decideUser(
        next,
        { type: 'UpdateUser', changes: { notify: DEFAULT_NOTIFY } },
        { username: 'rep', role: 'Representative' },
        'tech',
      ),
    ).toMatchObject({ ok: false, rejection: { kind: 'forbidden' } });
  });

  it('are checked: booleans, either left out keeps its value, nothing else', () => {
    expect(checkNotify({ email: false }, { push: false, email: true })).toEqual({
      value: { push: false, email: false },
    });
    expect(checkNotify({})).toEqual({ value: DEFAULT_NOTIFY });
    for (const bad of [null, true, 'on', [], { push: 'yes' }, { email: 0 }, { push: true, sms: true }])
      expect(checkNotify(bad)).toEqual({ error: USER_TEXTS.notifyInvalid });
  });
});
