import { notifyOf, sameUsername, type NotifyChannels, type User } from '@alignerflow/domain';
import { api } from '../../api/client';
import { cache } from '../../api/cache';

export type ChannelKey = keyof NotifyChannels;

/** A user's channels as the server shows them (older answers without `notify`: both on). */
export const channelsOf = (user: Pick<User, 'notify'>): NotifyChannels => notifyOf(user);

/** Saves one channel switch (or the address) of a user and puts the answer in the shared cache. */
export async function saveUser(
  username: string,
  changes: { notify?: Partial<NotifyChannels>; email?: string | null },
): Promise<User> {
  const updated = await api.updateUser(username, changes);
  const current = cache.get().users;
  if (current)
    cache.setUsers(current.map((user) => (sameUsername(user.username, updated.username) ? updated : user)));
  return updated;
}
