import { Controller, Delete, Get, HttpCode, NotFoundException, Param, Req } from '@nestjs/common';
import type { SessionInfo } from '@alignerflow/domain';
import { BeforeSecondFactor, type AuthenticatedRequest } from '../common/current-actor.js';
import { SessionsService } from '../sessions/sessions.service.js';

/** The caller's own sessions (api.md Accounts): see where one is signed in, and end one. */
@Controller('auth/sessions')
@BeforeSecondFactor()
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Get()
  async list(@Req() request: AuthenticatedRequest): Promise<SessionInfo[]> {
    const rows = await this.sessions.list(request.actor!.username);
    return rows.map((row) => ({
      id: row.id,
      current: row.token_hash === request.sessionTokenHash,
      createdAt: new Date(row.created_at).toISOString(),
      lastSeenAt: new Date(row.last_used_at).toISOString(),
      address: row.address,
      userAgent: row.user_agent,
      rememberMe: row.remember,
    }));
  }

  /** Only the caller's own: another user's session is as unknown as a made-up id. */
  @Delete(':id')
  @HttpCode(204)
  async end(@Req() request: AuthenticatedRequest, @Param('id') id: string): Promise<void> {
    if (!(await this.sessions.endById(request.actor!.username, id)))
      throw new NotFoundException({ error: 'Session not found.' });
  }
}
