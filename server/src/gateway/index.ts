import type { Config } from '../config';
import type { Gateway } from './types';
import { SimulatorGateway } from './simulator/simulator';

/** The gateway the configuration names; the simulator is the only one shipped. */
export function createGateway(config: Pick<Config, 'gateway' | 'sim'>, log?: (msg: string, err?: unknown) => void): Gateway {
  switch (config.gateway) {
    case 'simulator':
      return new SimulatorGateway({ ...config.sim, log });
    case 'cloud-api':
      throw new Error('Invalid configuration: GATEWAY=cloud-api is not available in this version');
  }
}

export type { Gateway } from './types';
