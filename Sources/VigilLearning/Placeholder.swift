// VigilLearning
