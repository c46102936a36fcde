import { connect, type Socket } from 'node:net';

/** An SMTP reply: its code and its lines joined. */
export interface SmtpReply {
  code: number;
  text: string;
}

/**
 * A bare SMTP client on a real socket, for what nodemailer does not let a test say: the null
 * sender, a 0-byte message, bytes that are not MIME, a SIZE that lies. One command at a time.
 */
export class SmtpClient {
  private buffer = '';
  private lines: string[] = [];
  private waiting: ((reply: SmtpReply) => void) | null = null;

  private constructor(private readonly socket: Socket) {
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      let end = this.buffer.indexOf('\r\n');
      while (end !== -1) {
        this.onLine(this.buffer.slice(0, end));
        this.buffer = this.buffer.slice(end + 2);
        end = this.buffer.indexOf('\r\n');
      }
    });
  }

  static async open(port: number): Promise<{ client: SmtpClient; greeting: SmtpReply }> {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const client = new SmtpClient(socket);
    const greeting = await client.reply();
    return { client, greeting };
  }

  private onLine(line: string): void {
    this.lines.push(line);
    if (/^\d{3} /.test(line) || /^\d{3}$/.test(line)) {
      const reply = { code: Number(line.slice(0, 3)), text: this.lines.map((entry) => entry.slice(4)).join('\n') };
      this.lines = [];
      const waiting = this.waiting;
      this.waiting = null;
      waiting?.(reply);
    }
  }

  private reply(): Promise<SmtpReply> {
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  command(line: string): Promise<SmtpReply> {
    const reply = this.reply();
    this.socket.write(`${line}\r\n`);
    return reply;
  }

  /** DATA, then the message dot-stuffed and ended; answers DATA's reply if not 354, else the final one. */
  async data(message: Buffer | string): Promise<SmtpReply> {
    const start = await this.command('DATA');
    if (start.code !== 354) {
      return start;
    }
    const text = Buffer.isBuffer(message) ? message.toString('latin1') : message;
    const stuffed = text.replace(/\r?\n/g, '\r\n').replace(/(^|\r\n)\./g, '$1..');
    const reply = this.reply();
    this.socket.write(Buffer.from(`${stuffed}${stuffed === '' || stuffed.endsWith('\r\n') ? '' : '\r\n'}.\r\n`, 'latin1'));
    return reply;
  }

  /** Bytes of a message in progress, as they are (the caller dot-stuffs), once the socket took them. */
  async write(bytes: Buffer): Promise<void> {
    if (!this.socket.write(bytes)) {
      await new Promise<void>((resolve) => this.socket.once('drain', () => resolve()));
    }
  }

  /** Ends a message written with `write` (after DATA's 354); answers the final reply. */
  endData(): Promise<SmtpReply> {
    const reply = this.reply();
    this.socket.write('\r\n.\r\n');
    return reply;
  }

  /** Drops the connection without QUIT (which a server in the middle of DATA takes for message text). */
  destroy(): void {
    this.socket.destroy();
  }

  async close(): Promise<void> {
    if (!this.socket.destroyed) {
      await this.command('QUIT').catch(() => undefined);
      this.socket.destroy();
    }
  }
}

/** One message over a fresh connection: the replies to each recipient and to the data (null when no recipient was taken). */
export async function sendRaw(
  port: number,
  envelope: { from: string; to: string[]; mailFromParameters?: string },
  message: Buffer | string,
): Promise<{ mailFrom: SmtpReply; rcpt: SmtpReply[]; data: SmtpReply | null; ehlo: SmtpReply }> {
  const { client } = await SmtpClient.open(port);
  try {
    const ehlo = await client.command('EHLO client.test');
    const mailFrom = await client.command(`MAIL FROM:<${envelope.from}>${envelope.mailFromParameters ?? ''}`);
    const rcpt: SmtpReply[] = [];
    if (mailFrom.code !== 250) {
      return { ehlo, mailFrom, rcpt, data: null };
    }
    for (const recipient of envelope.to) {
      rcpt.push(await client.command(`RCPT TO:<${recipient}>`));
    }
    const data = rcpt.some((reply) => reply.code === 250) ? await client.data(message) : null;
    return { ehlo, mailFrom, rcpt, data };
  } finally {
    await client.close();
  }
}
