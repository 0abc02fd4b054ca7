import { describe, expect, it } from 'vitest';
import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { Fact } from './Fact';

// Every component's source, to find a fact list that writes its own pairs.
const sources = import.meta.glob<string>(['../**/*.tsx', '!../**/*.test.tsx', '!./Fact.tsx'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

const inList = (fact: ReactNode) => render(<dl>{fact}</dl>).container.querySelector('dl')!;

describe('Fact', () => {
  it('renders the term and value as the <div><dt/><dd/></div> every fact list uses', () => {
    const list = inList(<Fact term="Case ID" value="CA-2025-123" />);
    expect(list.innerHTML).toBe('<div><dt>Case ID</dt><dd>CA-2025-123</dd></div>');
  });

  it('puts the pair and value classes and the value test id where the lists had them', () => {
    const list = inList(
      <Fact
        className="cd-details__wide"
        term="Balance"
        value="$10.00"
        valueClassName="cd-price"
        valueTestId="invoice-balance"
      />,
    );
    expect(list.innerHTML).toBe(
      '<div class="cd-details__wide"><dt>Balance</dt><dd class="cd-price" data-testid="invoice-balance">$10.00</dd></div>',
    );
  });

  it('shows a hint as a quieter line inside the value, and nothing when there is none', () => {
    const list = inList(<Fact term="Machine" value="Biostar" hint="from the last stage" />);
    const hint = list.querySelector('dd .fact__hint');
    expect(hint?.textContent).toBe('from the last stage');
    expect(hint?.className).toBe('fact__hint muted small');
    expect(inList(<Fact term="Machine" value={0} />).querySelector('.fact__hint')).toBeNull();
  });

  it('takes any node as term and value', () => {
    const list = inList(<Fact term={<abbr title="Identifier">ID</abbr>} value={<strong>42</strong>} />);
    expect(list.querySelector('dt abbr')?.textContent).toBe('ID');
    expect(list.querySelector('dd strong')?.textContent).toBe('42');
  });

  it('is the only writer of <dt> and <dd>: every fact list uses it', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(50);
    const ownPairs = Object.entries(sources)
      .filter(([, source]) => /<d[td][\s>]/.test(source))
      .map(([path]) => path);
    expect(ownPairs).toEqual([]);
  });
});
