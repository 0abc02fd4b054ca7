import { Allow } from 'class-validator';
import type {
  BillingSettingsBody,
  CreditNoteBody,
  DoctorBillingBody,
  PaymentMethod,
  RecordPaymentBody,
  VoidInvoiceBody,
} from '@alignerflow/domain';

/*
 * The bodies of api.md "Billing". Each field is only let through here; its checks are the
 * domain's (decideInvoice, checkBillingSettings), whose texts the 400 answers carry exactly.
 */

export class RecordPaymentDto implements RecordPaymentBody {
  @Allow() amount!: number;
  @Allow() method!: PaymentMethod;
  @Allow() reference?: string;
  @Allow() receivedAt?: string;
}

export class CreditNoteDto implements CreditNoteBody {
  @Allow() amount!: number;
  @Allow() reason!: string;
}

export class VoidInvoiceDto implements VoidInvoiceBody {
  @Allow() reason!: string;
}

export class BillingSettingsDto implements BillingSettingsBody {
  @Allow() labName!: string;
  @Allow() labAddress!: string;
  @Allow() labTaxId!: string;
  @Allow() currency!: string;
  @Allow() taxRate!: number;
  @Allow() paymentTermsDays!: number;
}

export class DoctorBillingDto implements DoctorBillingBody {
  @Allow() clinicName!: string;
  @Allow() address!: string;
  @Allow() taxId!: string;
  @Allow() email!: string;
  @Allow() taxRate?: number | null;
}
