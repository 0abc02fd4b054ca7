import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { NotificationsCoreModule } from '../notifications/notifications.module.js';
import { UsersModule } from '../users/users.module.js';
import { AuthController } from './auth.controller.js';
import { AuthGuard } from './auth.guard.js';
import { MfaController } from './mfa/mfa.controller.js';
import { MfaResetController } from './mfa/mfa-reset.controller.js';
import { MfaTokens } from './mfa/mfa-tokens.js';
import { SecondFactors } from './mfa/second-factors.js';
import { SecretBox } from './mfa/secret-box.js';
import { PasskeysController } from './passkeys/passkeys.controller.js';
import { PasskeysService } from './passkeys/passkeys.service.js';
import { SessionsController } from './sessions.controller.js';
import { ReauthController } from './step-up/reauth.controller.js';
import { KnownDevices } from './sign-in/known-devices.js';
import { NewSignInMail } from './sign-in/new-sign-in-mail.js';
import { SignInService } from './sign-in/sign-in.service.js';
import { SignInThrottle } from './sign-in/sign-in-throttle.js';

@Module({
  imports: [UsersModule, NotificationsCoreModule],
  controllers: [
    AuthController,
    SessionsController,
    MfaController,
    PasskeysController,
    MfaResetController,
    ReauthController,
  ],
  providers: [
    { provide: APP_GUARD, useClass: AuthGuard },
    SignInThrottle,
    KnownDevices,
    NewSignInMail,
    SignInService,
    SecretBox,
    SecondFactors,
    MfaTokens,
    PasskeysService,
  ],
})
export class AuthModule {}
