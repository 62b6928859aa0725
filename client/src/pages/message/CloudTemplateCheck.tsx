import type { App } from 'antd';
import type { WaTemplateCheck, WaTemplateWarning } from '../../../../common/wa-template-check';

type Modal = ReturnType<typeof App.useApp>['modal'];
type Translate = (key: string, options?: Record<string, unknown>) => string;

/** Warnings that say only that Meta could not be asked, not that a send will fail. */
const UNCHECKED = new Set(['wa_check_token', 'wa_check_unavailable']);

/** A warning in the screen's language (the server's text when the locale has no such code). */
export const warningText = (w: WaTemplateWarning, t: Translate) => t(`errors.${w.code}`, { ...w.params, defaultValue: w.msg });

/**
 * After a save: what Meta said about the WhatsApp template mapping, in a dialog the person closes before
 * the screen goes back. Nothing is shown when Meta has nothing to object (or was not asked).
 */
export function showTemplateCheck(modal: Pick<Modal, 'warning'>, t: Translate, check: WaTemplateCheck | null | undefined, done: () => void): void {
  const warnings = check?.warnings ?? [];
  if (warnings.length === 0) {
    done();
    return;
  }
  const willFail = warnings.some((w) => !UNCHECKED.has(w.code));
  modal.warning({
    title: t('message.cloud.check.title'),
    width: 560,
    content: (
      <div data-testid="wa-template-check">
        <ul style={{ paddingInlineStart: 20, margin: '8px 0' }}>
          {warnings.map((w) => (
            <li key={`${w.wabaId}-${w.code}`}>{warningText(w, t)}</li>
          ))}
        </ul>
        {willFail && <p style={{ margin: 0 }}>{t('message.cloud.check.willFail')}</p>}
      </div>
    ),
    onOk: done,
    // Closed with Escape, the screen goes back all the same (a create screen left open would save twice).
    onCancel: done,
  });
}
