import { useId, useState, type FormEvent } from 'react';
import { checkPricing, formatPrice, type Case } from '@alignerflow/domain';
import { Icon } from '../../components/Icon';
import { ActionError } from '../case-shared/ActionError';
import { latest } from './latest';
import { caseDetailApi } from '../case-shared/caseDetailApi';
import { CASE_DETAIL_TEXTS as T } from './texts';
import type { CaseCommandRunner } from '../case-shared/useCaseCommand';
import { Fact } from '../../components/Fact';

interface PricingTabProps {
  item: Case;
  canEdit: boolean;
  commands: CaseCommandRunner;
}

interface Draft {
  price: string;
  upperSheets: string;
  lowerSheets: string;
}

const draftOf = (item: Case): Draft => ({
  price: item.price === null || item.price === undefined ? '' : item.price.toFixed(2),
  upperSheets: item.upperSheets === null || item.upperSheets === undefined ? '' : String(item.upperSheets),
  lowerSheets: item.lowerSheets === null || item.lowerSheets === undefined ? '' : String(item.lowerSheets),
});

const orNA = (value: number | null | undefined) =>
  value === null || value === undefined ? T.notAvailable : String(value);

/**
 * 'Pricing': case price and sheet counts; Managers and Representatives edit them. Values are
 * parsed by the domain (a non-numeric or empty value is stored as absent and shows 'N/A');
 * Cancel restores the values the form started from.
 */
export function PricingTab({ item, canEdit, commands }: PricingTabProps) {
  const id = useId();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<Draft>(() => draftOf(item));
  // The case as it was when editing began: Save sends its version, so a change made meanwhile
  // answers 409 (and the case is reloaded) instead of being overwritten unseen.
  const [base, setBase] = useState(item);
  const [problem, setProblem] = useState<string | undefined>();

  function open() {
    setBase(item);
    setDraft(draftOf(item));
    setProblem(undefined);
    commands.clearError('pricing');
    setEditing(true);
  }

  function cancel() {
    setDraft(draftOf(item));
    setProblem(undefined);
    commands.clearError('pricing');
    setEditing(false);
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    const checked = checkPricing(draft);
    if ('error' in checked) {
      setProblem(checked.error);
      return;
    }
    setProblem(undefined);
    if (await commands.run('pricing', () => caseDetailApi.pricing(base, checked.value))) setEditing(false);
    else setBase(latest(base));
  }

  const field = (key: keyof Draft, label: string, step: string, prefix?: string) => (
    <div className="field">
      <label className="field__label" htmlFor={`${id}-${key}`}>
        {label}
      </label>
      <span className={prefix ? 'cd-input-prefix' : undefined} data-prefix={prefix}>
        <input
          id={`${id}-${key}`}
          type="number"
          inputMode={step === '1' ? 'numeric' : 'decimal'}
          min="0"
          step={step}
          value={draft[key]}
          onChange={(event) => setDraft({ ...draft, [key]: event.target.value })}
        />
      </span>
    </div>
  );

  if (editing) {
    return (
      <form className="cd-tab" onSubmit={save} noValidate>
        {field('price', T.casePrice, '0.01', '$')}
        <div className="form__grid">
          {field('upperSheets', T.upperSheets, '1')}
          {field('lowerSheets', T.lowerSheets, '1')}
        </div>
        <div className="button-row">
          <button type="submit" className="button button--primary" disabled={commands.busy === 'pricing'}>
            {T.save}
          </button>
          <button type="button" className="button button--ghost" onClick={cancel}>
            {T.cancel}
          </button>
        </div>
        <ActionError message={problem ?? commands.errors.pricing} />
      </form>
    );
  }

  return (
    <div className="cd-tab">
      <dl className="cd-details cd-details--pricing">
        <Fact term={T.casePrice} value={formatPrice(item.price)} valueClassName="cd-price" />
        <Fact term={T.upperSheets} value={orNA(item.upperSheets)} />
        <Fact term={T.lowerSheets} value={orNA(item.lowerSheets)} />
      </dl>
      {canEdit ? (
        <button type="button" className="button button--secondary" onClick={open}>
          <Icon name="edit" />
          {T.editDetails}
        </button>
      ) : null}
    </div>
  );
}
