import { Anchor, Text } from '@mantine/core';
import type { Contract, ContractType } from '../../../shared/contract';
import { useStandalone } from '../lib/connection';
import { useMetadataQuery } from '../lib/live-data';
import { openShelterSettings } from '../shelter/shelter-tab';

export const CONTRACT_WORDS: Record<ContractType, { title: string; text: string }> = {
  adopter: { title: 'Adoption agreement', text: 'Signed by adopters when a pet goes home.' },
  foster: { title: 'Foster agreement', text: 'Signed by foster homes before they take an animal in.' },
  volunteer: { title: 'Volunteer agreement', text: 'Signed by new volunteers.' },
  surrender: { title: 'Surrender form', text: 'Signed by owners who give up a pet.' },
};

/**
 * Where one of the shelter's agreements stands on this desk: `written`; `unwritten` (the shelter has no text for it,
 * so there is nothing anyone could read or accept); `not-synced` (before the desk's first sync); `loading`.
 */
export type AgreementState = 'written' | 'unwritten' | 'not-synced' | 'loading';

export function agreementState(contract: Contract | null | undefined): AgreementState {
  if (contract === undefined) return 'loading';
  // Null until the desk's first sync brought the shelter's contracts (a standalone shelter has all four, maybe empty).
  if (contract === null) return 'not-synced';
  return contract.content.trim() === '' ? 'unwritten' : 'written';
}

export function useAgreement(type: ContractType) {
  const contract = useMetadataQuery('mirror.contract', { type });
  return { contract, state: agreementState(contract.data) };
}

/** Says an agreement has no text yet and where it gets one: Shelter, Contracts on this desk, or the shelter's server. */
export function UnwrittenAgreement({ type }: { type: ContractType }) {
  const standalone = useStandalone();
  const title = CONTRACT_WORDS[type].title;
  if (!standalone) {
    return (
      <Text size="sm">
        Your shelter has not written its {title.toLowerCase()} yet. Once your shelter writes it, it arrives
        here with the next sync.
      </Text>
    );
  }
  return (
    <Text size="sm">
      This shelter has not written its {title.toLowerCase()} yet.{' '}
      <Anchor href="#/shelter" size="sm" onClick={() => openShelterSettings('contracts')}>
        Write it under Shelter, Contracts
      </Anchor>
      .
    </Text>
  );
}
