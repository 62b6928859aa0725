import { useTranslate } from '@refinedev/core';
import { useSearchParams } from 'react-router';
import { MessageForm } from './form';

/** /message/edit?id=: the template form preloaded. */
export function MessageEdit() {
  const t = useTranslate();
  const [params] = useSearchParams();
  const id = params.get('id');
  return <MessageForm key={id ?? ''} id={id} title={t('message.editTitle')} />;
}
