import { Icon } from '../../components/Icon';
import { WIZARD_TEXTS } from './texts';

interface PaymentStepProps {
  status: 'idle' | 'paying' | 'paid';
  progress: number;
  onPay: () => void;
}

/** Doctors only: the $50.00 case fee, a simulated 2.5 s mobile-wallet payment (spec section 9). */
export function PaymentStep({ status, progress, onPay }: PaymentStepProps) {
  return (
    <div className="wizard-step wizard-payment">
      <div className="wizard-payment__fee">
        <span className="muted">{WIZARD_TEXTS.fee}</span>
        <strong className="wizard-payment__amount">{WIZARD_TEXTS.feeAmount}</strong>
      </div>
      <p className="muted">{WIZARD_TEXTS.feeHint}</p>
      {status === 'idle' ? (
        <button type="button" className="button button--primary" onClick={onPay} data-autofocus>
          {WIZARD_TEXTS.pay}
        </button>
      ) : null}
      {status === 'paying' ? (
        <div className="wizard-payment__progress" aria-live="polite">
          <progress max={100} value={progress} aria-label={WIZARD_TEXTS.paymentProgress} />
          <span>{WIZARD_TEXTS.paying}</span>
        </div>
      ) : null}
      {status === 'paid' ? (
        <p className="form-success">
          <Icon name="check" /> {WIZARD_TEXTS.paid}
        </p>
      ) : null}
    </div>
  );
}
