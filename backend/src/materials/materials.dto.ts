import { IsBoolean, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import {
  DEVICE_TEXTS,
  LOT_NUMBER_MAX,
  type MaterialSettingsBody,
  type RegisterLotBody,
  type ShipmentBody,
} from '@alignerflow/domain';
import { ConcurrencyDto } from '../cases/cases.dto.js';

// The domain checks each field with its own texts (checkLotInput, checkSettingsInput,
// checkShipmentInput); these keep out what is not text at all, and bound the sizes.

export class RegisterLotDto implements RegisterLotBody {
  @IsOptional() @IsString({ message: DEVICE_TEXTS.lotKind }) @MaxLength(16) kind!: string;
  @IsOptional() @IsString({ message: DEVICE_TEXTS.productRequired }) @MaxLength(200) product!: string;
  @IsOptional()
  @IsString({ message: DEVICE_TEXTS.lotNumberRequired })
  @MaxLength(LOT_NUMBER_MAX)
  lotNumber!: string;
  @IsOptional() @IsString() @MaxLength(200) supplier?: string | null;
  @IsOptional() @IsString({ message: DEVICE_TEXTS.expiresOn }) @MaxLength(10) expiresOn?: string | null;
}

/** transitDays: a number or a numeric string; the domain decides. */
const NotNumber = () => ValidateIf((_, value) => value !== undefined && typeof value !== 'number');

export class MaterialSettingsDto implements MaterialSettingsBody {
  @IsOptional() @IsBoolean({ message: DEVICE_TEXTS.requireLots }) requireLots?: boolean;
  @IsOptional()
  @NotNumber()
  @IsString({ message: DEVICE_TEXTS.transitDays })
  @MaxLength(8)
  transitDays?: number;
  @IsOptional() @IsString() @MaxLength(200) manufacturerName?: string;
  @IsOptional() @IsString() @MaxLength(500) manufacturerAddress?: string;
  @IsOptional() @IsString() @MaxLength(200) responsiblePerson?: string;
  @IsOptional() @IsString() @MaxLength(2000) conformityText?: string;
}

export class ShipmentDto extends ConcurrencyDto implements ShipmentBody {
  @IsOptional() @IsString({ message: DEVICE_TEXTS.carrier }) @MaxLength(16) carrier!: string;
  @IsOptional()
  @IsString({ message: DEVICE_TEXTS.trackingNumberRequired })
  @MaxLength(64)
  trackingNumber!: string;
  @IsOptional() @IsString({ message: DEVICE_TEXTS.shippedAt }) @MaxLength(40) shippedAt?: string;
}
