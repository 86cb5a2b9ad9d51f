// VigilVision
