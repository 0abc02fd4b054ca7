import { evolveUser, publicUser, userStreamId, type UserEventData, type UserState } from './users.js';

import { userState } from '../testing/user-fixtures.js';

describe('evolveUser and the public shape', () => {
  it('folds create, update and delete with contiguous versions', () => {
    const events: UserEventData[] = [
      {
        type: 'UserCreated',
        data: { username: 'tech', role: 'Technician', email: null, passwordHash: 'h1' },
      },
      { type: 'UserUpdated', data: { changes: { activationSoundEnabled: false, email: 't@x.io' } } },
      { type: 'UserUpdated', data: { changes: { passwordHash: 'h2' } } },
      { type: 'UserDeleted', data: {} },
    ];
    const states = events.reduce<UserState[]>(
      (all, event) => [...all, evolveUser(all.at(-1) ?? null, event)],
      [],
    );
    expect(states.map((state) => state.version)).toEqual([1, 2, 3, 4]);
    expect(states[0]).toEqual({
      username: 'tech',
      role: 'Technician',
      email: null,
      passwordHash: 'h1',
      activationSoundEnabled: true, // treated as true unless explicitly false
      notify: { push: true, email: true },
      deleted: false,
      version: 1,
    });
    expect(states[2]).toMatchObject({ activationSoundEnabled: false, email: 't@x.io', passwordHash: 'h2' });
    expect(states[3].deleted).toBe(true);
  });

  it('imports a user whole', () => {
    const imported = evolveUser(null, {
      type: 'UserImported',
      data: {
        user: {
          username: 'dr.lee',
          role: 'Doctor',
          email: null,
          activationSoundEnabled: false,
          passwordHash: 'h',
        },
      },
    });
    expect(imported).toEqual({
      username: 'dr.lee',
      role: 'Doctor',
      email: null,
      activationSoundEnabled: false,
      notify: { push: true, email: true }, // an older import: both on
      passwordHash: 'h',
      deleted: false,
      version: 1,
    });
  });

  it('never exposes the password hash', () => {
    const shown = publicUser(userState('tech', 'Technician', { email: 't@x.io' }));
    expect(shown).toEqual({
      username: 'tech',
      role: 'Technician',
      email: 't@x.io',
      activationSoundEnabled: true,
      notify: { push: true, email: true },
    });
    expect(Object.keys(shown)).not.toContain('passwordHash');
  });

  it.each([
    ['admin', 'user-admin'],
    ['Admin', 'user-admin'],
    ['Dr.Lee', 'user-dr.lee'],
  ])('stream id of %s is %s (case-insensitive names)', (username, id) => {
    expect(userStreamId(username)).toBe(id);
  });
});
