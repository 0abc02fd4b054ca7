import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { NotificationsCoreModule } from '../notifications/notifications.module.js';
import { UsersModule } from '../users/users.module.js';
import { AuthController } from './auth.controller.js';
import { AuthGuard } from './auth.guard.js';
import { SessionsController } from './sessions.controller.js';
import { KnownDevices } from './sign-in/known-devices.js';
import { NewSignInMail } from './sign-in/new-sign-in-mail.js';
import { SignInService } from './sign-in/sign-in.service.js';
import { SignInThrottle } from './sign-in/sign-in-throttle.js';

@Module({
  imports: [UsersModule, NotificationsCoreModule],
  controllers: [AuthController, SessionsController],
  providers: [
    { provide: APP_GUARD, useClass: AuthGuard },
    SignInThrottle,
    KnownDevices,
    NewSignInMail,
    SignInService,
  ],
})
export class AuthModule {}
