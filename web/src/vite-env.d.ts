/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The support address shown on the error screen. */
  readonly VITE_SUPPORT_EMAIL?: string;
}
