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
}
