/** Signing in (api.md, Auth) and the bodies of the user commands (api.md, Users). */
import type { NotifyChannels, User } from '../users/users.js';
import type { MfaStatus } from './accounts.js';

/** `POST /auth/login`'s body: username case-insensitive, password exact. */
export interface LoginBody {
  username: string;
  password: string;
  rememberMe?: boolean;
}

/** `POST /auth/login`: the signed-in user and a token usable as `Authorization: Bearer`. */
export interface LoginAnswer {
  user: User;
  token: string;
}

/** `GET /auth/me`: the user of the session (401 without one). */
export interface MeAnswer {
  user: User;
  /** The caller's second factors (api.md, Accounts). */
  mfa: MfaStatus;
  /**
   * When this session ends unless used again (ISO): its absolute end, or its last use plus the
   * idle window, whichever is sooner. The app's offline copy is shown only until then.
   */
  expiresAt: string;
}

/** `POST /users`'s body (Manager): 201 User. */
export interface CreateUserBody {
  username?: string;
  password?: string;
  /** A Role; any other text answers 400 naming it. */
  role?: string;
  email?: string;
}

/** `PUT /users/{username}`'s body (Manager; self for the sound, email, channels and password): 200 User. */
export interface UpdateUserBody {
  activationSoundEnabled?: boolean;
  /** null clears the address. */
  email?: string | null;
  role?: string;
  password?: string;
  /** Needed when users change their own password. */
  currentPassword?: string;
  /** Either switch may be left out. */
  notify?: Partial<NotifyChannels>;
}
