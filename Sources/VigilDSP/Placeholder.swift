// VigilDSP
