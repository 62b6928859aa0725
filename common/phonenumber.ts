/** A phone number as the server's lists, single read and live events show it, and the console's list keeps it. */
export interface PhoneNumberView {
  id: number;
  number: string;
  name: string;
  status: 'active' | 'nonactive';
  in_use: number;
  count_success: number;
  count_fail: number;
  last_sent: string | null;
  /** Set when the number is on the suppression list: why it opted out. */
  opt_out_reason: string | null;
  /** mobile, fixed_line or other by the numbering plan; invalid or duplicate for older rows the re-normalisation could not keep; null until classified. */
  line_type?: string | null;
  /** Attempts at the latest message (retries with a policy): 1 for a first send, more while it is retried. */
  send_attempts?: number;
  /** The gateway's code of the last failed send, and when it failed. */
  last_error?: string | null;
  last_failed_at?: string | null;
  /** When the number is tried again (a failure that may pass), else null. */
  next_attempt_at?: string | null;
  /** 'Gagal permanen': when the attempts ran out or the reason would not pass (the number is then nonactive). */
  failed_at?: string | null;
}
