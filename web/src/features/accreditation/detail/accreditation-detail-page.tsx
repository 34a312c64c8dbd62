import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { accreditationApi, accreditationKey } from '../../../api/accreditation';
import { LoadingState } from '../../../components/loading-state';
import { useDetailQuery } from '../../../components/use-detail-query';
import { useCurrentAction } from '../../action/use-current-action';
import { AccreditationEditor } from './accreditation-form';

/** The current action's id, or a message while none can be chosen (spec §2 Layout: the action switcher). */
function useActionOrMessage() {
  const { t } = useTranslation();
  const current = useCurrentAction();
  if (current.isLoading) return { node: <LoadingState /> };
  if (current.actionId === null)
    return {
      node: (
        <Alert color="yellow" role="alert">
          {t('accreditationDetail.noAction')}
        </Alert>
      ),
    };
  return { actionId: current.actionId };
}

/** `/accreditation/create`: a new accreditation in the current action; after saving, its detail. */
export function AccreditationCreatePage() {
  const { actionId, node } = useActionOrMessage();
  if (actionId === undefined) return node;
  return <AccreditationEditor key={actionId} actionId={actionId} mode="create" />;
}

/** `/accreditation/detail/:id`: an accreditation of the current action (spec §2). */
export function AccreditationDetailPage() {
  const id = Number(useParams().id);
  const { actionId, node } = useActionOrMessage();
  const query = useDetailQuery({
    queryKey: accreditationKey(actionId ?? 0, id),
    queryFn: () => accreditationApi.get(actionId as number, id),
    enabled: actionId !== undefined && Number.isInteger(id) && id > 0,
    listPath: '/accreditation',
    errorKey: 'accreditationDetail.loadError',
    notFoundPath: '/accreditation',
  });
  if (actionId === undefined) return node;
  if (!query.data) return <LoadingState />;
  return (
    <AccreditationEditor
      key={`${actionId}-${id}`}
      actionId={query.data.actionId}
      accreditation={query.data}
      mode="detail"
    />
  );
}
