import { Type } from 'class-transformer';
import {
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { LIMITS, type NotificationMessageBody } from '@alignerflow/domain';

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

export class PushKeysDto {
  @IsString()
  @MaxLength(200)
  @Matches(BASE64URL, { message: 'keys.p256dh must be URL-safe base64.' })
  p256dh!: string;
  @IsString()
  @MaxLength(100)
  @Matches(BASE64URL, { message: 'keys.auth must be URL-safe base64.' })
  auth!: string;
}

/** The browser's PushSubscription.toJSON(), plus the optional username of the older client. */
export class PushSubscribeDto {
  @IsString()
  @MaxLength(LIMITS.url)
  // http passes here so that it gets the answer of every endpoint not allowed (PushEndpointGuard).
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
    { message: 'endpoint must be an https URL.' },
  )
  endpoint!: string;

  @IsOptional() @IsInt() @Min(0) expirationTime?: number | null;

  @IsObject({ message: 'keys must hold p256dh and auth.' })
  @ValidateNested()
  @Type(() => PushKeysDto)
  keys!: PushKeysDto;

  @IsOptional() @IsString() @MaxLength(LIMITS.username) username?: string;
}

export class PushUnsubscribeDto {
  @IsString() @MaxLength(LIMITS.url) endpoint!: string;
}

export class FcmTokenDto {
  @IsString({ message: 'Please provide an FCM token.' }) @MaxLength(4096) token!: string;
}

export class NotificationMessageDto implements NotificationMessageBody {
  @IsOptional() @IsString() @MaxLength(200) title?: string;
  @IsOptional() @IsString({ message: 'Please enter a message body.' }) @MaxLength(2000) body?: string;
}

export class DeliveriesQueryDto {
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) limit?: number;
}
