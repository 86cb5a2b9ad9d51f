// VigilDevice
