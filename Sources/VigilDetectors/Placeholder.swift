// VigilDetectors
