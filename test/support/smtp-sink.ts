import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The envelope's recipients (RCPT TO), lower-cased. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  /** The message as it came over the wire (headers and encoded body). */
  raw: string;
}

/**
 * A real SMTP server on a free loopback port that keeps every message it accepts. An address in
 * `refuse` is answered with that SMTP code at RCPT TO (4xx: try later; 5xx: never).
 */
export class SmtpSink {
  readonly mails: ReceivedMail[] = [];
  /** Every RCPT TO the server was asked for, accepted or not. */
  readonly recipientsAsked: string[] = [];
  readonly refuse = new Map<string, number>();

  private constructor(private readonly server: SMTPServer) {}

  static async start(): Promise<SmtpSink> {
    const sinks: SmtpSink[] = [];
    const server = new SMTPServer({
      secure: false,
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        const to = address.address.toLowerCase();
        sinks[0].recipientsAsked.push(to);
        const code = sinks[0].refuse.get(to);
        if (code) {
          const error = new Error(`Mailbox ${to} unavailable`) as Error & { responseCode: number };
          error.responseCode = code;
          return callback(error);
        }
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          simpleParser(raw)
            .then((parsed) => {
              sinks[0].mails.push({
                to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                subject: parsed.subject ?? '',
                text: parsed.text ?? '',
                html: typeof parsed.html === 'string' ? parsed.html : '',
                messageId: parsed.messageId ?? '',
                raw,
              });
              callback();
            })
            .catch(callback);
        });
      },
    });
    const sink = new SmtpSink(server);
    sinks.push(sink);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return sink;
  }

  get url(): string {
    const { port } = this.server.server.address() as AddressInfo;
    return `smtp://127.0.0.1:${port}`;
  }

  /** The mails one address received. */
  to(address: string): ReceivedMail[] {
    return this.mails.filter((mail) => mail.to.includes(address.toLowerCase()));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
