import type { Invoice } from '@alignerflow/domain';
import { billingSettled, invoicesOf } from './support/billing';
import { caseAt } from './support/case-road';
import { useDemoUsers } from './support/demo-users';
import { getBytes, readPdf } from './support/pdf';

/** api.md "Billing": the invoice and the monthly statement as one-page PDFs, read back with pdftotext. */
describe('billing PDFs', () => {
  const users = useDemoUsers();
  const { admin, rep, drLee, drPatel } = users;
  let invoice: Invoice;

  beforeAll(async () => {
    const settings = {
      labName: 'Clear Path Aligner Lab',
      labAddress: '12 Harbour Road, Leeds',
      labTaxId: 'GB123456789',
      currency: 'USD',
      taxRate: 8.25,
      paymentTermsDays: 30,
    };
    expect((await admin.put('/billing/settings', settings)).status).toBe(200);
    const details = {
      clinicName: 'Lee Family Dental',
      address: '5 Elm Street',
      taxId: 'LFD-77',
      email: 'ap@lee.example',
    };
    expect((await drLee.put('/users/dr.lee/billing', details)).status).toBe(200);
    const item = await caseAt(users.byUsername, 'Delivery to Doctor', {
      price: 1100.5,
      patientName: 'Jane Doe',
    });
    await billingSettled(users.lab.databaseUrl);
    [invoice] = await invoicesOf(admin, item.id);
    expect(
      (await rep.post(`/invoices/${invoice.number}/payments`, { amount: 20000, method: 'bank' })).status,
    ).toBe(200);
  });

  it.each([
    ['A4', '(A4)'],
    ['Letter', '(letter)'],
  ])('an invoice on one %s page: lab, clinic, number, dates, lines, totals, balance', async (size, paper) => {
    const answer = await getBytes(drLee, `/invoices/${invoice.number}.pdf?size=${size}`);
    expect(answer.status).toBe(200);
    expect(answer.type).toBe('application/pdf');
    const pdf = await readPdf(answer.bytes);
    expect(pdf.pages).toBe(1);
    expect(pdf.pageSize).toContain(paper);
    for (const text of [
      `Invoice ${invoice.number}`,
      'Clear Path Aligner Lab',
      '12 Harbour Road, Leeds',
      'Tax ID: GB123456789',
      'Lee Family Dental',
      '5 Elm Street',
      `Issued: ${invoice.issuedAt.slice(0, 10)}`,
      `Due: ${invoice.dueAt.slice(0, 10)}`,
      `Clear aligner treatment, case ${invoice.caseId}`,
      '$1,100.50', // the line and the subtotal
      '$90.79', // 8.25 % of 1,100.50, half-up
      '$1,191.29', // the total
      '$200.00', // paid
      '$991.29', // the balance
    ])
      expect(pdf.text).toContain(text);
  });

  it('another doctor gets 404 for the PDF; Designers 403', async () => {
    expect((await getBytes(drPatel, `/invoices/${invoice.number}.pdf`)).status).toBe(404);
    expect(
      (await getBytes(await users.lab.login('designer'), `/invoices/${invoice.number}.pdf`)).status,
    ).toBe(403);
  });

  it('a monthly statement on one page that adds up', async () => {
    const month = invoice.issuedAt.slice(0, 7);
    const statement = (await drLee.get(`/billing/statements/dr.lee?month=${month}`)).body;
    const answer = await getBytes(drLee, `/billing/statements/dr.lee.pdf?month=${month}`);
    expect(answer).toMatchObject({ status: 200, type: 'application/pdf' });
    const pdf = await readPdf(answer.bytes);
    expect(pdf.pages).toBe(1);
    for (const text of [
      `Statement ${month}`,
      'Clear Path Aligner Lab',
      'Lee Family Dental',
      invoice.number,
      'Closing balance',
    ])
      expect(pdf.text).toContain(text);
    const closing = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(
      statement.closing / 100,
    );
    expect(pdf.text).toContain(`Closing balance: ${closing}`);
    expect((await getBytes(drPatel, `/billing/statements/dr.lee.pdf?month=${month}`)).status).toBe(404);
  });
});
