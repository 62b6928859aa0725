import { useTranslate } from '@refinedev/core';
import { useSearchParams } from 'react-router';
import { PageTitle } from '../../components/PageTitle';
import { MessageForm } from './form';

/** /message/edit?id=: the template form preloaded. */
export function MessageEdit() {
  const t = useTranslate();
  const [params] = useSearchParams();
  const id = params.get('id');
  return (
    <div>
      <PageTitle title={t('message.editTitle')} />
      <MessageForm key={id ?? ''} id={id} />
    </div>
  );
}
