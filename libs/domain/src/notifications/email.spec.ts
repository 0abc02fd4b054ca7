import { caseIdFromFragment, caseLink, notificationEmail } from './email.js';
import { patientInitials } from '../case/patient-initials.js';

describe('notification emails', () => {
  it('names a patient by initials only', () => {
    expect(patientInitials('Maria Gonzalez')).toBe('M.G.');
    expect(patientInitials('  jean-luc  picard ')).toBe('j.l.p.');
    expect(patientInitials('Émile Zola')).toBe('É.Z.');
    expect(patientInitials('(unknown) 42')).toBe('u.');
    expect(patientInitials('  ')).toBe('patient');
  });

  it('links to the case with a fragment the app opens', () => {
    expect(caseLink('https://lab.example/portal/', 'CA-2025-123')).toBe(
      'https://lab.example/portal/#case=CA-2025-123',
    );
    expect(caseIdFromFragment('#case=CA-2025-123')).toBe('CA-2025-123');
    expect(caseIdFromFragment('#case=')).toBeNull();
    expect(caseIdFromFragment('#scan')).toBeNull();
    expect(caseIdFromFragment('#case=%E0%A4%A')).toBeNull();
  });

  it('has a subject, plain text and HTML with the same words, the HTML escaped', () => {
    const email = notificationEmail({
      title: 'Changes requested',
      body: 'dr.lee requested changes to CA-2025-123: <b>tilt</b> & "rotate"',
      caseId: 'CA-2025-123',
      url: 'https://lab.example/#case=CA-2025-123',
    });
    expect(email.subject).toBe('AlignerFlow: Changes requested (CA-2025-123)');
    expect(email.text).toContain('dr.lee requested changes to CA-2025-123: <b>tilt</b> & "rotate"');
    expect(email.text).toContain('Case: CA-2025-123');
    expect(email.text).toContain('Open the case: https://lab.example/#case=CA-2025-123');
    expect(email.html).toContain('&lt;b&gt;tilt&lt;/b&gt; &amp; &quot;rotate&quot;');
    expect(email.html).toContain('<a href="https://lab.example/#case=CA-2025-123">Open the case</a>');
    expect(email.html).not.toContain('<b>tilt</b>');
  });
});
